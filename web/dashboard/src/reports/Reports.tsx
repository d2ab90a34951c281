/**
 * Reports: occupancy, revenue and ADR per month against the same months a year earlier, the bookings by source, the
 * pickup of the coming months, and the figures per month and per unit as tables with CSV export — all from
 * /v1/report_unit_months and /v1/report_unit_pickup (docs/reports.md), for the units and months chosen. Needs
 * `reports:read`; a member without it is told so instead of an error.
 */
import { useState } from 'react';
import { Alert, Group, Loader, MultiSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MonthPickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { monthStart } from '../common/dates';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { ChannelMixChart, MonthComparisonChart, PickupChart } from './charts';
import type { ReportColumn } from './csv';
import { channelMix, compareMonths, compareUnits, figuresOf, pickupCurve, totalsCurrency, type Figures, type MonthComparison, type UnitComparison } from './figures';
import { loadAllUnitNames, loadPickup, loadReport, monthsBetween, type ReportFilters } from './queries';
import type { reportsMessages } from './messages.js';
import { ReportTable } from './ReportTable';
import { usePickerLabels } from '../units/reader-words';

/** How many of the chosen months, from the current one on, the pickup chart draws. */
const PICKUP_MONTHS = 3;

/** A figure the page names (occupancy, revenue, …). */
type FigureName = keyof (typeof reportsMessages)['en']['figures'];

type Range = [string | null, string | null];

/** Money in major units for the CSV (a spreadsheet's number), from minor units of `currency`. */
function majorUnits(minor: number, currency: string): number {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return minor / 10 ** digits;
}

export function Reports() {
  const { t } = useTranslation('reports');
  const { can } = useWorkspace();
  if (!can('reports')) {
    return (
      <Stack>
        <Title order={2}>{t('title')}</Title>
        <Text fw={600}>{t('noAccess')}</Text>
        <Text>{t('noAccessText')}</Text>
      </Stack>
    );
  }
  return <ReportsPage />;
}

function ReportsPage() {
  const { t } = useTranslation('reports');
  const pickerLabels = usePickerLabels();
  const { format, locale, currency: organizationCurrency } = useWorkspace();
  const year = format.today().slice(0, 4);
  const [range, setRange] = useState<Range>([`${year}-01-01`, `${year}-12-01`]);
  const [filters, setFilters] = useState<ReportFilters>({ from: range[0]!, to: range[1]!, units: [] });
  const names = useLoad(loadAllUnitNames, []);
  const report = useLoad(() => loadReport(filters), [filters]);
  const shownMonths = monthsBetween(filters.from, filters.to);
  const comingMonths = shownMonths.filter((month) => month >= monthStart(format.today())).slice(0, PICKUP_MONTHS);
  const pickup = useLoad(() => loadPickup(comingMonths, filters.units), [filters, comingMonths.join()]);

  const chooseRange = (value: Range) => {
    setRange(value);
    if (value[0] && value[1]) setFilters({ ...filters, from: monthStart(value[0]), to: monthStart(value[1]) });
  };
  const chooseUnits = (value: string[]) => setFilters({ ...filters, units: value });

  const unitName = new Map((names.data ?? []).map((unit) => [unit.id, unit.deleted_at ? t('deleted', { name: localized(unit.name, locale) }) : localized(unit.name, locale)]));
  const rows = report.data?.rows ?? [];
  const lastYearRows = report.data?.lastYearRows ?? [];
  const currency = totalsCurrency(rows, organizationCurrency);
  const months = compareMonths(shownMonths, rows, lastYearRows, currency);
  const nameOf = (productId: string) => unitName.get(productId) ?? productId;
  const perUnit = compareUnits(rows, lastYearRows).sort((a, b) => nameOf(a.productId).localeCompare(nameOf(b.productId), locale));
  const otherCurrencies = perUnit.filter((unit) => unit.currency !== currency).length;
  const period = figuresOf(rows, currency);
  const lastYearPeriod = figuresOf(lastYearRows, currency);

  const sameYear = filters.from.slice(0, 4) === filters.to.slice(0, 4);
  const currentLabel = sameYear ? filters.from.slice(0, 4) : t('thisPeriod');
  const lastYearLabel = sameYear ? String(Number(filters.from.slice(0, 4)) - 1) : t('yearEarlier');
  const percent = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const count = new Intl.NumberFormat(locale);
  // A chart's axis: whole percents and whole amounts.
  const wholePercent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const wholeMoney = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 0 });
  const shortMonth = new Intl.DateTimeFormat(locale, { month: 'short', year: sameYear ? undefined : '2-digit', timeZone: 'UTC' });
  const occupancy = (figures: Figures) => (figures.occupancy === null ? '—' : percent.format(figures.occupancy));
  const money = (minor: number | null, unitCurrency = currency) => (minor === null ? '—' : format.money(minor, unitCurrency));
  const axisMoney = (minor: number) => wholeMoney.format(majorUnits(minor, currency));
  const points = (figure: (figures: Figures) => number | null) => months.map(({ month, current, lastYear }) => ({
    label: shortMonth.format(new Date(`${month}T00:00:00Z`)), current: figure(current), lastYear: figure(lastYear),
  }));

  const figureLabel = (name: FigureName) => t(`figures.${name}`);
  const before = (name: FigureName) => t('column.before', { figure: figureLabel(name), period: lastYearLabel });
  const inCurrency = (label: string) => t('column.inCurrency', { figure: label, currency });
  const monthColumns: ReportColumn<MonthComparison>[] = [
    { label: t('tables.month'), shown: (row) => format.month(row.month), exported: (row) => row.month },
    { label: figureLabel('occupancy'), shown: (row) => occupancy(row.current), exported: (row) => row.current.occupancy, numeric: true },
    { label: before('occupancy'), shown: (row) => occupancy(row.lastYear), exported: (row) => row.lastYear.occupancy, numeric: true },
    { label: figureLabel('bookedNights'), shown: (row) => count.format(row.current.bookedNights), exported: (row) => row.current.bookedNights, numeric: true },
    { label: figureLabel('availableNights'), shown: (row) => count.format(row.current.availableNights), exported: (row) => row.current.availableNights, numeric: true },
    { label: inCurrency(figureLabel('revenue')), shown: (row) => money(row.current.revenue), exported: (row) => majorUnits(row.current.revenue, currency), numeric: true },
    { label: inCurrency(before('revenue')), shown: (row) => money(row.lastYear.revenue), exported: (row) => majorUnits(row.lastYear.revenue, currency), numeric: true },
    { label: inCurrency(figureLabel('adr')), shown: (row) => money(row.current.adr), exported: (row) => (row.current.adr === null ? null : majorUnits(row.current.adr, currency)), numeric: true },
    { label: inCurrency(before('adr')), shown: (row) => money(row.lastYear.adr), exported: (row) => (row.lastYear.adr === null ? null : majorUnits(row.lastYear.adr, currency)), numeric: true },
    { label: figureLabel('bookings'), shown: (row) => count.format(row.current.bookings), exported: (row) => row.current.bookings, numeric: true },
  ];
  const unitColumns: ReportColumn<UnitComparison>[] = [
    { label: t('tables.unit'), shown: (row) => nameOf(row.productId), exported: (row) => nameOf(row.productId) },
    { label: t('tables.currency'), shown: (row) => row.currency, exported: (row) => row.currency },
    { label: figureLabel('occupancy'), shown: (row) => occupancy(row.current), exported: (row) => row.current.occupancy, numeric: true },
    { label: before('occupancy'), shown: (row) => occupancy(row.lastYear), exported: (row) => row.lastYear.occupancy, numeric: true },
    { label: figureLabel('bookedNights'), shown: (row) => count.format(row.current.bookedNights), exported: (row) => row.current.bookedNights, numeric: true },
    { label: figureLabel('revenue'), shown: (row) => money(row.current.revenue, row.currency), exported: (row) => majorUnits(row.current.revenue, row.currency), numeric: true },
    { label: before('revenue'), shown: (row) => money(row.lastYear.revenue, row.currency), exported: (row) => majorUnits(row.lastYear.revenue, row.currency), numeric: true },
    { label: figureLabel('adr'), shown: (row) => money(row.current.adr, row.currency), exported: (row) => (row.current.adr === null ? null : majorUnits(row.current.adr, row.currency)), numeric: true },
    { label: figureLabel('bookings'), shown: (row) => count.format(row.current.bookings), exported: (row) => row.current.bookings, numeric: true },
  ];

  const fileSuffix = `${filters.from.slice(0, 7)}-to-${filters.to.slice(0, 7)}`;
  return (
    <Stack>
      <Title order={2}>{t('title')}</Title>
      <Group align="flex-end" wrap="wrap" gap="sm" role="search" aria-label={t('filters')}>
        <MultiSelect label={t('units')} placeholder={filters.units.length === 0 ? t('allUnits') : undefined} clearable searchable value={[...filters.units]} onChange={chooseUnits} miw={260}
          data={(names.data ?? []).map((unit) => ({ value: unit.id, label: unitName.get(unit.id)! }))} />
        <MonthPickerInput ariaLabels={pickerLabels} type="range" label={t('months')} value={range} onChange={(value) => chooseRange(value as Range)} allowSingleDateInRange miw={220} />
        {report.loading && <Loader size="xs" role="status" aria-label={t('loading')} />}
      </Group>
      <ErrorAlert error={report.error ?? pickup.error ?? names.error} title={t('failed')} />
      {otherCurrencies > 0 && (
        <Alert color="gray">{t('otherCurrencies', { count: otherCurrencies, currency })}</Alert>
      )}
      {report.data && (
        <>
          <SimpleGrid cols={{ base: 2, md: 4 }} aria-label={t('period')}>
            <Summary label={t('figures.occupancy')} value={occupancy(period)} before={occupancy(lastYearPeriod)} lastYearLabel={lastYearLabel} />
            <Summary label={t('figures.revenue')} value={money(period.revenue)} before={money(lastYearPeriod.revenue)} lastYearLabel={lastYearLabel} />
            <Summary label={t('figures.adr')} value={money(period.adr)} before={money(lastYearPeriod.adr)} lastYearLabel={lastYearLabel} />
            <Summary label={t('figures.bookings')} value={count.format(period.bookings)} before={count.format(lastYearPeriod.bookings)} lastYearLabel={lastYearLabel} />
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <MonthComparisonChart title={t('charts.occupancy')} kind="bars" points={points((figures) => figures.occupancy)} format={(value) => percent.format(value)} axisFormat={(value) => wholePercent.format(value)}
              currentLabel={currentLabel} lastYearLabel={lastYearLabel} />
            <MonthComparisonChart title={t('charts.revenue', { currency })} kind="bars" points={points((figures) => figures.revenue)} format={(value) => money(value)} axisFormat={axisMoney}
              currentLabel={currentLabel} lastYearLabel={lastYearLabel} />
            <MonthComparisonChart title={t('charts.adr', { currency })} kind="lines" points={points((figures) => figures.adr)} format={(value) => money(value)} axisFormat={axisMoney}
              currentLabel={currentLabel} lastYearLabel={lastYearLabel} />
            <ChannelMixChart title={t('charts.sources')} shares={channelMix(rows).map(({ source, bookings }) => ({ label: t(`sources.${source}`), bookings }))} />
          </SimpleGrid>
          {comingMonths.length > 0 ? (
            <PickupChart title={t('charts.pickup')} format={(value) => wholePercent.format(value)}
              curves={comingMonths.map((month) => ({
                label: format.month(month),
                points: pickupCurve(pickup.data ?? [], month, months.find((row) => row.month === month)?.current.availableNights ?? 0, format.today()),
              }))} />
          ) : (
            <Text c="dimmed" size="sm">{t('charts.noPickup')}</Text>
          )}
          <ReportTable title={t('tables.perMonth')} columns={monthColumns} rows={months} rowKey={(row) => row.month} fileName={`report-months-${fileSuffix}.csv`} />
          <ReportTable title={t('tables.perUnit')} columns={unitColumns} rows={perUnit} rowKey={(row) => row.productId} fileName={`report-units-${fileSuffix}.csv`} />
        </>
      )}
    </Stack>
  );
}

function Summary({ label, value, before, lastYearLabel }: { label: string; value: string; before: string; lastYearLabel: string }) {
  return (
    <Paper withBorder p="sm" role="group" aria-label={label}>
      <Text size="sm" c="dimmed">{label}</Text>
      <Text size="xl" fw={700}>{value}</Text>
      <Text size="xs" c="dimmed">{lastYearLabel}: {before}</Text>
    </Paper>
  );
}
