/**
 * The guest's stay beside their conversation: unit, dates, guests, status, and the total and what is paid when the
 * member may read them, with a link to the booking's page. Read as the booking page reads it (loadBooking), so each
 * part the member may not read is left out of the requests.
 */
import { Anchor, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BookingDetail } from '../bookings/queries';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { StatusBadge } from '../common/StatusBadge';
import { useWorkspace } from '../shell/context';

export function StayCard({ detail }: { detail: BookingDetail }) {
  const { t } = useTranslation('inbox');
  const { format, locale } = useWorkspace();
  const { booking, event, contacts, lineItems, payments } = detail;
  const total = lineItems?.filter((line) => line.fee_type === 'fee').reduce((sum, line) => sum + line.amount, 0);
  const paid = payments?.filter((payment) => payment.status === 'paid').reduce((sum, payment) => sum + payment.amount, 0);
  const guests = Object.values(booking.occupancy).reduce((sum, count) => sum + count, 0);
  return (
    <Card withBorder component="section" aria-label={t('stay.title')}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h4">{t('stay.title')}</Title>
          {event && <StatusBadge status={event.status} />}
        </Group>
        {contacts?.map((contact) => (
          <Text key={contact.id} fw={600}>{[contact.first_name, contact.last_name].filter(Boolean).join(' ')}</Text>
        ))}
        {event && <Text>{localized(event.products?.name, locale)}</Text>}
        {event && <Text size="sm">{format.date(event.start_date)} – {format.date(event.end_date)}</Text>}
        <Text size="sm">{t('stay.guests', { count: guests })}</Text>
        {total !== undefined && <Text size="sm">{t('stay.total', { amount: format.money(total, booking.currency) })}</Text>}
        {paid !== undefined && <Text size="sm">{t('stay.paid', { amount: format.money(paid, booking.currency) })}</Text>}
        <Anchor component={Link} to={`/bookings/${booking.id}`} size="sm">{t('bookingReference', { reference: booking.reference })}</Anchor>
      </Stack>
    </Card>
  );
}
