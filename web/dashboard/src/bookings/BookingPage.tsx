/**
 * One booking: guest, stay, price lines, payments, invoices, messages, tasks, private notes and its whole history,
 * each shown when the member may read it; change or cancel the stay, answer a request, and the money of the booking
 * (record a payment, refund, the payment link, invoices and their PDFs).
 */
import { useState } from 'react';
import { Alert, Anchor, Button, Group, Loader, Modal, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ChangeStay } from './ChangeStay';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { StatusBadge } from '../common/StatusBadge';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { HistorySection } from './HistorySection';
import { InvoicesSection } from './InvoicesSection';
import { MessagesSection } from './MessagesSection';
import { NotesSection } from './NotesSection';
import { PaymentsSection } from './PaymentsSection';
import { cancelBooking, loadBooking, type BookingDetail } from './queries';
import { mayAnswerRequests, RequestButtons } from './RequestButtons';
import { Section } from './Section';
import { useAction } from '../common/use-action';

export function BookingPage({ bookingId }: { bookingId: string }) {
  const { t } = useTranslation('booking');
  const { can, locale } = useWorkspace();
  const loaded = useLoad(() => loadBooking(bookingId, can), [bookingId, can]);

  if (loaded.loading && !loaded.data) return <Group><Loader size="sm" role="status" aria-label={t('page.loading')} /><Text>{t('page.loading')}</Text></Group>;
  if (loaded.error && !loaded.data) return <ErrorAlert error={loaded.error} title={t('page.loadFailed')} />;
  if (!loaded.data) return <><Title order={2}>{t('page.notFound')}</Title><Anchor component={Link} to="/bookings">{t('page.allBookings')}</Anchor></>;
  const detail = loaded.data;
  const unitName = localized(detail.event?.products?.name, locale);
  const mayChange = detail.event !== null && detail.event.status !== 'CANCELLED' && can('bookings', 'write');

  return (
    <Stack>
      <Anchor component={Link} to="/bookings" size="sm">{t('page.backToAll')}</Anchor>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={2}>{t('page.title', { reference: detail.booking.reference })}</Title>
          {detail.event && <StatusBadge status={detail.event.status} />}
        </Group>
        {mayChange && (
          <Group gap="xs">
            <ChangeStay detail={detail} onChanged={loaded.reload} />
            <CancelButton bookingId={detail.booking.id} reference={detail.booking.reference} onCancelled={loaded.reload} />
          </Group>
        )}
      </Group>
      <ErrorAlert error={loaded.error} title={t('page.refreshFailed')} />
      {detail.event?.status === 'TENTATIVE' && mayAnswerRequests(can) && (
        <RequestAnswer bookingId={detail.booking.id} onAnswered={loaded.reload} />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stay detail={detail} unitName={unitName} />
        <Guest detail={detail} />
      </SimpleGrid>
      <Prices detail={detail} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <PaymentsSection detail={detail} onChanged={loaded.reload} />
        <InvoicesSection detail={detail} onChanged={loaded.reload} />
      </SimpleGrid>
      <MessagesSection detail={detail} onChanged={loaded.reload} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <NotesSection detail={detail} onChanged={loaded.reload} />
        <Tasks detail={detail} />
      </SimpleGrid>
      <HistorySection detail={detail} />
    </Stack>
  );
}

/** A booking request (tentative stay) waits for the host: confirm it, or decline it (cancelled, all paid refunded). */
function RequestAnswer({ bookingId, onAnswered }: { bookingId: string; onAnswered: () => void }) {
  const { t } = useTranslation('booking');
  return (
    <Alert color="yellow" title={t('request.title')} role="region" aria-label={t('request.title')}>
      <Stack gap="xs">
        <Text size="sm">{t('request.explain')}</Text>
        <RequestButtons bookingId={bookingId} onAnswered={onAnswered} labels={{ confirm: t('request.confirm'), decline: t('request.decline') }} />
      </Stack>
    </Alert>
  );
}

function CancelButton({ bookingId, reference, onCancelled }: { bookingId: string; reference: string; onCancelled: () => void }) {
  const { t } = useTranslation(['booking', 'common']);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const action = useAction(onCancelled);
  const confirm = async () => {
    if (await action.run('cancel', () => cancelBooking(bookingId, reason))) setOpen(false);
  };
  return (
    <>
      <Button color="red" variant="outline" onClick={() => setOpen(true)}>{t('cancel.button')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} closeButtonProps={{ 'aria-label': t('common:close') }} title={t('cancel.title', { reference })}>
        <Stack>
          <ErrorAlert error={action.error} title={t('cancel.failed')} />
          <Text size="sm">{t('cancel.explain')}</Text>
          <Textarea label={t('cancel.reason')} placeholder={t('cancel.reasonPlaceholder')} value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={2000} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>{t('cancel.keep')}</Button>
            <Button color="red" onClick={confirm} loading={action.busy !== null}>{t('cancel.button')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function Stay({ detail, unitName }: { detail: BookingDetail; unitName: string }) {
  const { t } = useTranslation('booking');
  const { format, locale } = useWorkspace();
  const event = detail.event;
  const booked = t('stay.booked', { when: format.moment(detail.booking.created_at) })
    + (detail.booking.confirmed_at ? t('stay.confirmed', { when: format.moment(detail.booking.confirmed_at) }) : '');
  return (
    <Section title={t('stay.title')} shown={event !== null} empty={false}>
      {event && (
        <Stack gap={4}>
          <Text><b>{unitName}</b></Text>
          <Text>{format.date(event.start_date)} – {format.date(event.end_date)}</Text>
          <Text size="sm" c="dimmed">{booked} · {detail.booking.method === 'request' ? t('stay.request') : t('stay.instant')}</Text>
          <Text size="sm">{t('stay.guests', { count: detail.guests })}</Text>
          {(detail.details ?? []).map((field) => <Text size="sm" key={field.id}>{localized(field.name, locale)}: {field.value ?? '—'}</Text>)}
        </Stack>
      )}
    </Section>
  );
}

function Guest({ detail }: { detail: BookingDetail }) {
  const { t } = useTranslation('booking');
  return (
    <Section title={t('guest.title')} shown={detail.contacts !== null} empty={detail.contacts?.length === 0}>
      {detail.contacts?.map((contact) => (
        <Stack gap={2} key={contact.id}>
          <Text><b>{contact.first_name} {contact.last_name}</b></Text>
          {contact.email && <Anchor href={`mailto:${contact.email}`}>{contact.email}</Anchor>}
          {contact.phone && <Anchor href={`tel:${contact.phone}`}>{contact.phone}</Anchor>}
          <Text size="sm" c="dimmed">{[contact.country, contact.language].filter(Boolean).join(' · ')}</Text>
        </Stack>
      ))}
    </Section>
  );
}

function Prices({ detail }: { detail: BookingDetail }) {
  const { t } = useTranslation('booking');
  const { format, locale } = useWorkspace();
  const currency = detail.booking.currency;
  const fees = (detail.lineItems ?? []).filter((line) => line.fee_type === 'fee');
  const deposits = (detail.lineItems ?? []).filter((line) => line.fee_type === 'deposit');
  return (
    <Section title={t('prices.title')} shown={detail.lineItems !== null} empty={detail.lineItems?.length === 0}>
      <Table aria-label={t('prices.table')}>
        <Table.Thead><Table.Tr><Table.Th>{t('prices.line')}</Table.Th><Table.Th ta="right">{t('prices.quantity')}</Table.Th><Table.Th ta="right">{t('prices.amount')}</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {[...fees, ...deposits].map((line) => (
            <Table.Tr key={line.id}>
              <Table.Td>{line.fee_type === 'deposit' ? t('prices.depositLine', { name: localized(line.name, locale) }) : localized(line.name, locale)}</Table.Td>
              <Table.Td ta="right">{line.quantity}</Table.Td>
              <Table.Td ta="right">{format.money(line.amount, currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr><Table.Th>{t('prices.total')}</Table.Th><Table.Td /><Table.Th ta="right">{format.money(fees.reduce((sum, line) => sum + line.amount, 0), currency)}</Table.Th></Table.Tr>
          {deposits.length > 0 && <Table.Tr><Table.Th>{t('prices.deposit')}</Table.Th><Table.Td /><Table.Th ta="right">{format.money(deposits.reduce((sum, line) => sum + line.amount, 0), currency)}</Table.Th></Table.Tr>}
        </Table.Tfoot>
      </Table>
    </Section>
  );
}

/** A task done, or still open. */
const DONE = '✓';
const OPEN = '○';

function Tasks({ detail }: { detail: BookingDetail }) {
  const { t } = useTranslation('booking');
  const { format } = useWorkspace();
  return (
    <Section title={t('tasks.title')} shown={detail.tasks !== null} empty={detail.tasks?.length === 0}>
      <Stack gap={4}>
        {detail.tasks?.map((task) => (
          <Text size="sm" key={task.id}>{task.completed_at ? DONE : OPEN} {t('tasks.due', { label: task.label, when: format.moment(task.due_at) })}</Text>
        ))}
      </Stack>
    </Section>
  );
}
