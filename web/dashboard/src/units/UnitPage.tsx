/**
 * One unit's editor, in sections: its details, photos, capacity, prices and stay rules (configurations, a month
 * calendar to close dates, per-date prices), extras and fees, tasks, the automated e-mails it sends, cancellation
 * policy, the unit as the widget shows it (a preview), and duplicating or archiving it. Each section reads and saves
 * its own part, and is shown only when the member may read that part.
 */
import { useState } from 'react';
import { Anchor, Badge, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { CancellationPolicy } from './CancellationPolicy';
import { Capacity } from './Capacity';
import { Configurations } from './Configurations';
import { DatePrices } from './DatePrices';
import { DetailsSection } from './DetailsSection';
import { Extras } from './Extras';
import { PhotosSection } from './PhotosSection';
import { Tasks } from './Tasks';
import { DETAILS_SELECT } from './unit-details';
import { UnitActions } from './UnitActions';
import { UnitCalendar } from './UnitCalendar';
import { UnitEmails } from './UnitEmails';
import { UnitPreview, useMayPreview } from './UnitPreview';

const UNIT_SELECT = `${DETAILS_SELECT},images,cancellation_policy,deleted_at` as const;

export function UnitPage({ unitId }: { unitId: string }) {
  const { can, locale } = useWorkspace();
  const { t } = useTranslation('units');
  const mayPreview = useMayPreview();
  // Bumped when the calendar or the prices per date change dates: both show them.
  const [datesVersion, setDatesVersion] = useState(0);
  const datesChanged = () => setDatesVersion((version) => version + 1);
  const unit = useLoad(async () => rowsOf(await database.from('products').select(UNIT_SELECT).eq('id', unitId).maybeSingle()), [unitId]);

  if (unit.loading && !unit.data) return <Loader size="sm" role="status" aria-label={t('page.loading')} />;
  if (!unit.data) return <><ErrorAlert error={unit.error} title={t('page.loadFailed')} /><Title order={2}>{t('page.notFound')}</Title></>;
  const { data } = unit;
  return (
    <Stack>
      <Anchor component={Link} to="/units" size="sm">{t('page.back')}</Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Group gap="xs">
            <Title order={2}>{localized(data.name, locale)}</Title>
            {data.deleted_at && <Badge color="gray" variant="light">{t('archived')}</Badge>}
          </Group>
          <Text size="sm" c="dimmed">{t(`rentPeriods.${data.rent_period}`)} · {data.timezone} · {data.currency}</Text>
        </Stack>
        {can('products', 'write') && <UnitActions unitId={unitId} archived={data.deleted_at !== null} onChanged={unit.reload} />}
      </Group>
      <DetailsSection unit={data} onSaved={unit.reload} />
      <PhotosSection unitId={unitId} images={data.images} onSaved={unit.reload} />
      {can('capacities') && can('capacity_groups') && <Capacity unitId={unitId} />}
      {can('product_configurations') ? <Configurations unitId={unitId} currency={data.currency} />
        : <Text size="sm" c="dimmed">{t('page.noConfigurations')}</Text>}
      {can('price_calendar_entries') && can('bookings') && <UnitCalendar unitId={unitId} currency={data.currency} version={datesVersion} onChanged={datesChanged} />}
      {can('price_calendar_entries') && <DatePrices unitId={unitId} currency={data.currency} version={datesVersion} onChanged={datesChanged} />}
      {can('product_services') && can('services') && <Extras unitId={unitId} currency={data.currency} />}
      {can('product_tasks') && <Tasks unitId={unitId} />}
      {can('email_templates') && can('message_templates') && can('product_message_templates') && <UnitEmails unitId={unitId} />}
      <CancellationPolicy unitId={unitId} policy={data.cancellation_policy} />
      {mayPreview && !data.deleted_at && <UnitPreview unitId={unitId} />}
    </Stack>
  );
}
