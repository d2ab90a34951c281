/**
 * Arrivals and departures of today and tomorrow and the stays in progress, from one request (loadStays). Each stay
 * links to its booking when the member may read bookings; guest, number of guests, arrival time and payment show as
 * far as the member may read them.
 */
import { Anchor, Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PaymentBadge } from '../bookings/PaymentBadge';
import { addDays } from '../common/dates';
import { Link } from '../common/router';
import { StatusBadge } from '../common/StatusBadge';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadStays, type TodayStay } from './queries';
import { Section } from './Section';

function StayLine({ stay, note }: { stay: TodayStay; note: string }) {
  const { t } = useTranslation('today');
  const { can } = useWorkspace();
  // Without guests or bookings to read (a cleaner), the unit names the stay.
  const name = stay.guest ?? stay.reference ?? stay.unit ?? t('stays.stay');
  const mayOpenBookings = can('bookings');
  return (
    <Group gap="xs" wrap="wrap" data-event-id={stay.eventId} data-booking-id={stay.bookingId ?? undefined}>
      {stay.bookingId && mayOpenBookings ? <Anchor component={Link} to={`/bookings/${stay.bookingId}`} fw={600}>{name}</Anchor> : <Text fw={600}>{name}</Text>}
      {stay.unit && stay.unit !== name && <Text size="sm">{stay.unit}</Text>}
      {stay.guests !== null && <Text size="sm" c="dimmed">{t('stays.guests', { count: stay.guests })}</Text>}
      <Text size="sm" c="dimmed">{note}</Text>
      {stay.status === 'TENTATIVE' && <StatusBadge status={stay.status} />}
      <PaymentBadge state={stay.payment} />
    </Group>
  );
}

function Day({ title, stays, note }: { title: string; stays: TodayStay[]; note: (stay: TodayStay) => string }) {
  const { t } = useTranslation('today');
  return (
    <Stack gap={4}>
      <Title order={4} size="h6">{title} <Badge variant="light" color="gray" component="span">{stays.length}</Badge></Title>
      {stays.length === 0 ? <Text size="sm" c="dimmed">{t('stays.none')}</Text> : stays.map((stay) => <StayLine key={stay.eventId} stay={stay} note={note(stay)} />)}
    </Stack>
  );
}

export function StaySections() {
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const today = format.today();
  const tomorrow = addDays(today, 1);
  const loaded = useLoad(() => loadStays(can, today, format.locale), [can, today, format]);
  const on = (field: 'start' | 'end', day: string) => (stays: TodayStay[]) => stays.filter((stay) => stay[field] === day);
  const inProgress = (stays: TodayStay[]) => stays.filter((stay) => stay.start < today && stay.end > today);
  const arrivalNote = (stay: TodayStay) => [t('stays.until', { date: format.date(stay.end) }), stay.arrivalTime && t('stays.arrives', { time: stay.arrivalTime })]
    .filter(Boolean).join(' · ');
  const departureNote = (stay: TodayStay) => t('stays.since', { date: format.date(stay.start) });
  const handledAt = can('bookings') ? { to: '/bookings', label: t('stays.allBookings') } : { to: '/', label: t('stays.openCalendar') };
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }}>
      <Section title={t('stays.arrivals')} loaded={loaded} empty={() => null} handledAt={handledAt}>
        {(stays) => (
          <>
            <Day title={t('stays.today', { date: format.date(today) })} stays={on('start', today)(stays)} note={arrivalNote} />
            <Day title={t('stays.tomorrow', { date: format.date(tomorrow) })} stays={on('start', tomorrow)(stays)} note={arrivalNote} />
          </>
        )}
      </Section>
      <Section title={t('stays.departures')} loaded={loaded} empty={() => null} handledAt={handledAt}>
        {(stays) => (
          <>
            <Day title={t('stays.today', { date: format.date(today) })} stays={on('end', today)(stays)} note={departureNote} />
            <Day title={t('stays.tomorrow', { date: format.date(tomorrow) })} stays={on('end', tomorrow)(stays)} note={departureNote} />
          </>
        )}
      </Section>
      <Section title={t('stays.inProgress')} loaded={loaded} empty={(stays) => (inProgress(stays).length === 0 ? t('stays.noneInProgress') : null)} handledAt={handledAt}>
        {(stays) => inProgress(stays).map((stay) => <StayLine key={stay.eventId} stay={stay} note={`${format.date(stay.start)} – ${format.date(stay.end)}`} />)}
      </Section>
    </SimpleGrid>
  );
}
