/**
 * One unit's prices: its configurations (when each applies, stay rules, the rate table, which can be edited here),
 * per-date prices (a rate, a minimum stay or a closure for single dates, over the configurations) and its
 * cancellation policy.
 */
import { useState } from 'react';
import { Anchor, Button, Card, Group, Loader, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { database, rowsOf, type Selected } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { CancellationPolicy } from './CancellationPolicy';
import { DatePrices } from './DatePrices';
import { addDays } from '../common/dates';
import { currencyDigits, dateRanges } from './intervals';

const CONFIGURATION = 'id,name,color,order,intervals,min_duration,max_duration,check_in_days,rates';
type Configuration = Selected<'product_configurations', typeof CONFIGURATION>;

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function UnitPage({ unitId }: { unitId: string }) {
  const { can, locale } = useWorkspace();
  const unit = useLoad(async () => rowsOf(await database.from('products').select('id,name,currency,rent_period,timezone,cancellation_policy').eq('id', unitId).maybeSingle()), [unitId]);
  const configurations = useLoad(async () => can('product_configurations')
    ? rowsOf(await database.from('product_configurations').select(CONFIGURATION).eq('product_id', unitId).order('order'))
    : null, [unitId, can]);

  if (unit.loading && !unit.data) return <Loader size="sm" role="status" aria-label="Loading the unit" />;
  if (!unit.data) return <><ErrorAlert error={unit.error} title="The unit could not be loaded" /><Title order={2}>Unit not found</Title></>;
  return (
    <Stack>
      <Anchor component={Link} to="/units" size="sm">← Units and prices</Anchor>
      <Title order={2}>{localized(unit.data.name, locale)}</Title>
      <Text size="sm" c="dimmed">{unit.data.rent_period} · {unit.data.timezone} · {unit.data.currency}</Text>
      <Title order={3} size="h4">Configurations</Title>
      <ErrorAlert error={configurations.error} title="The configurations could not be loaded" />
      {configurations.data === null && <Text size="sm" c="dimmed">Your permissions do not include configurations.</Text>}
      {configurations.data?.length === 0 && <Text size="sm" c="dimmed">No configuration: the unit is closed on every date.</Text>}
      {configurations.data?.map((configuration) => (
        <ConfigurationCard key={configuration.id} configuration={configuration} currency={unit.data!.currency} onSaved={configurations.reload} />
      ))}
      {can('price_calendar_entries') && <DatePrices unitId={unitId} currency={unit.data.currency} />}
      <CancellationPolicy unitId={unitId} policy={unit.data.cancellation_policy} />
    </Stack>
  );
}

function ConfigurationCard({ configuration, currency, onSaved }: { configuration: Configuration; currency: string; onSaved: () => void }) {
  const { can, format, locale } = useWorkspace();
  const digits = currencyDigits(currency);
  const [rates, setRates] = useState(configuration.rates);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const mayWrite = can('product_configurations', 'write');
  const changed = JSON.stringify(rates) !== JSON.stringify(configuration.rates);
  const save = async () => {
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      rowsOf(await database.from('product_configurations').update({ rates }).eq('id', configuration.id));
      setSaved(true);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const name = localized(configuration.name, locale) || 'Configuration';
  return (
    <Card withBorder component="section" aria-label={name} style={{ borderLeft: `6px solid ${configuration.color}` }}>
      <Group justify="space-between">
        <Title order={4} size="h5">{name}</Title>
        <Text size="xs" c="dimmed">priority {configuration.order}</Text>
      </Group>
      {/* The ranges' ends are exclusive ([start, end)): a person reads the last day that is included. */}
      <Text size="sm">{dateRanges(configuration.intervals).map((range) => `${format.date(range.start)} – ${format.date(addDays(range.end, -1))}`).join('; ') || 'no dates'}</Text>
      <Text size="sm">Stay {configuration.min_duration}{configuration.max_duration ? `–${configuration.max_duration}` : '+'} nights · check-in {configuration.check_in_days.every(Boolean) ? 'any day' : WEEKDAYS.filter((_, index) => configuration.check_in_days[index]).join(', ')}</Text>
      <ErrorAlert error={error} title="The rates were not saved" />
      <Table mt="xs" aria-label={`Rates of ${name}`}>
        <Table.Thead><Table.Tr><Table.Th>From nights</Table.Th><Table.Th>From guests</Table.Th><Table.Th>Rate per night ({currency})</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {rates.map((rate, index) => (
            <Table.Tr key={index}>
              <Table.Td>{rate.duration}</Table.Td>
              <Table.Td>{rate.occupancy}</Table.Td>
              <Table.Td>
                {mayWrite ? (
                  <NumberInput aria-label={`Rate from ${rate.duration} nights and ${rate.occupancy} guests`} size="xs" w={140} min={0} decimalScale={digits} fixedDecimalScale
                    value={rate.rate / 10 ** digits} onChange={(value) => setRates(rates.map((row, at) => at === index ? { ...row, rate: Math.round(Number(value) * 10 ** digits) } : row))} />
                ) : format.money(rate.rate, currency)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {mayWrite && (
        <Group mt="xs">
          <Button size="xs" onClick={save} loading={busy} disabled={!changed}>Save rates</Button>
          {saved && !changed && <Text size="sm" role="status">Rates saved.</Text>}
        </Group>
      )}
    </Card>
  );
}
