/**
 * One booking: guest, stay, price lines, payments, messages, tasks and the change log, each shown when the member
 * may read it; cancel it (its dates become free at once).
 */
import { useState } from 'react';
import { Alert, Anchor, Button, Card, Group, Loader, Modal, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { ChangeStay } from './ChangeStay';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { Link } from '../common/router';
import { StatusBadge } from '../common/StatusBadge';
import { useLoad } from '../common/use-load';
import { threadPath } from '../inbox/threads';
import { useWorkspace } from '../shell/context';
import { cancelBooking, loadBooking, type BookingDetail } from './queries';
import { mayAnswerRequests, RequestButtons } from './RequestButtons';

function Section({ title, shown, empty, children }: { title: string; shown: boolean; empty: boolean; children: React.ReactNode }) {
  return (
    <Card withBorder component="section" aria-label={title}>
      <Title order={3} size="h4" mb="xs">{title}</Title>
      {!shown ? <Text size="sm" c="dimmed">Your permissions do not include this.</Text> : empty ? <Text size="sm" c="dimmed">None.</Text> : children}
    </Card>
  );
}

export function BookingPage({ bookingId }: { bookingId: string }) {
  const { can, locale } = useWorkspace();
  const loaded = useLoad(() => loadBooking(bookingId, can), [bookingId, can]);

  if (loaded.loading && !loaded.data) return <Group><Loader size="sm" role="status" aria-label="Loading the booking" /><Text>Loading the booking…</Text></Group>;
  if (loaded.error && !loaded.data) return <ErrorAlert error={loaded.error} title="The booking could not be loaded" />;
  if (!loaded.data) return <><Title order={2}>Booking not found</Title><Anchor component={Link} to="/bookings">All bookings</Anchor></>;
  const detail = loaded.data;
  const unitName = localized(detail.event?.products?.name, locale);

  return (
    <Stack>
      <Anchor component={Link} to="/bookings" size="sm">← All bookings</Anchor>
      <Group justify="space-between" wrap="wrap">
        <Group gap="sm">
          <Title order={2}>Booking <span style={{ fontFamily: 'monospace' }}>{detail.booking.reference}</span></Title>
          {detail.event && <StatusBadge status={detail.event.status} />}
        </Group>
        {detail.event && detail.event.status !== 'CANCELLED' && can('bookings', 'write') && (
          <Group gap="xs">
            <ChangeStay detail={detail} onChanged={loaded.reload} />
            <CancelButton bookingId={detail.booking.id} reference={detail.booking.reference} onCancelled={loaded.reload} />
          </Group>
        )}
      </Group>
      <ErrorAlert error={loaded.error} title="The booking could not be refreshed" />
      {detail.event?.status === 'TENTATIVE' && mayAnswerRequests(can) && (
        <RequestAnswer bookingId={detail.booking.id} onAnswered={loaded.reload} />
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stay detail={detail} unitName={unitName} />
        <Guest detail={detail} />
      </SimpleGrid>
      <Prices detail={detail} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Payments detail={detail} />
        <Tasks detail={detail} />
      </SimpleGrid>
      <Messages detail={detail} />
      <Changes detail={detail} />
    </Stack>
  );
}

/** A booking request (tentative stay) waits for the host: confirm it, or decline it (cancelled, all paid refunded). */
function RequestAnswer({ bookingId, onAnswered }: { bookingId: string; onAnswered: () => void }) {
  return (
    <Alert color="yellow" title="Booking request" role="region" aria-label="Booking request">
      <Stack gap="xs">
        <Text size="sm">The guest asked to book these dates. They are held until you confirm or decline the request.</Text>
        <RequestButtons bookingId={bookingId} onAnswered={onAnswered} labels={{ confirm: 'Confirm request', decline: 'Decline request' }} />
      </Stack>
    </Alert>
  );
}

function CancelButton({ bookingId, reference, onCancelled }: { bookingId: string; reference: string; onCancelled: () => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await cancelBooking(bookingId, reason);
      setOpen(false);
      onCancelled();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button color="red" variant="outline" onClick={() => setOpen(true)}>Cancel booking</Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Cancel booking ${reference}?`}>
        <Stack>
          <ErrorAlert error={error} title="The booking was not cancelled" />
          <Text size="sm">The booking becomes cancelled and its dates are free for other guests at once; coupons it used can be used again.</Text>
          <Textarea label="Reason" placeholder="e.g. the guest fell ill" value={reason} onChange={(event) => setReason(event.currentTarget.value)} maxLength={2000} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>Keep it</Button>
            <Button color="red" onClick={confirm} loading={busy}>Cancel booking</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function Stay({ detail, unitName }: { detail: BookingDetail; unitName: string }) {
  const { format } = useWorkspace();
  const event = detail.event;
  return (
    <Section title="Stay" shown={event !== null} empty={false}>
      {event && (
        <Stack gap={4}>
          <Text><b>{unitName}</b></Text>
          <Text>{format.date(event.start_date)} – {format.date(event.end_date)}</Text>
          <Text size="sm" c="dimmed">Booked {format.moment(detail.booking.created_at)}{detail.booking.confirmed_at ? `, confirmed ${format.moment(detail.booking.confirmed_at)}` : ''} · {detail.booking.method === 'request' ? 'request' : 'instant booking'}</Text>
          <Text size="sm">Guests: {detail.guests}</Text>
          {(detail.details ?? []).map((field) => <Text size="sm" key={field.id}>{localized(field.name, 'en')}: {field.value ?? '—'}</Text>)}
        </Stack>
      )}
    </Section>
  );
}

function Guest({ detail }: { detail: BookingDetail }) {
  return (
    <Section title="Guest" shown={detail.contacts !== null} empty={detail.contacts?.length === 0}>
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
  const { format, locale } = useWorkspace();
  const currency = detail.booking.currency;
  const fees = (detail.lineItems ?? []).filter((line) => line.fee_type === 'fee');
  const deposits = (detail.lineItems ?? []).filter((line) => line.fee_type === 'deposit');
  return (
    <Section title="Price" shown={detail.lineItems !== null} empty={detail.lineItems?.length === 0}>
      <Table aria-label="Price lines">
        <Table.Thead><Table.Tr><Table.Th>Line</Table.Th><Table.Th ta="right">Quantity</Table.Th><Table.Th ta="right">Amount</Table.Th></Table.Tr></Table.Thead>
        <Table.Tbody>
          {[...fees, ...deposits].map((line) => (
            <Table.Tr key={line.id}>
              <Table.Td>{localized(line.name, locale)}{line.fee_type === 'deposit' ? ' (deposit)' : ''}</Table.Td>
              <Table.Td ta="right">{line.quantity}</Table.Td>
              <Table.Td ta="right">{format.money(line.amount, currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr><Table.Th>Total</Table.Th><Table.Td /><Table.Th ta="right">{format.money(fees.reduce((sum, line) => sum + line.amount, 0), currency)}</Table.Th></Table.Tr>
          {deposits.length > 0 && <Table.Tr><Table.Th>Deposit</Table.Th><Table.Td /><Table.Th ta="right">{format.money(deposits.reduce((sum, line) => sum + line.amount, 0), currency)}</Table.Th></Table.Tr>}
        </Table.Tfoot>
      </Table>
    </Section>
  );
}

function Payments({ detail }: { detail: BookingDetail }) {
  const { format } = useWorkspace();
  return (
    <Section title="Payments" shown={detail.payments !== null} empty={detail.payments?.length === 0}>
      <Table aria-label="Payments">
        <Table.Tbody>
          {detail.payments?.map((payment) => (
            <Table.Tr key={payment.id}>
              <Table.Td>{format.money(payment.amount, payment.currency)}</Table.Td>
              <Table.Td>{payment.status}</Table.Td>
              <Table.Td>{payment.method}</Table.Td>
              <Table.Td>{payment.paid_at ? `paid ${format.moment(payment.paid_at)}` : payment.due_at ? `due ${format.moment(payment.due_at)}` : ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

function Tasks({ detail }: { detail: BookingDetail }) {
  const { format } = useWorkspace();
  return (
    <Section title="Tasks" shown={detail.tasks !== null} empty={detail.tasks?.length === 0}>
      <Stack gap={4}>
        {detail.tasks?.map((task) => (
          <Text size="sm" key={task.id}>{task.completed_at ? '✓' : '○'} {task.label} — due {format.moment(task.due_at)}</Text>
        ))}
      </Stack>
    </Section>
  );
}

function Messages({ detail }: { detail: BookingDetail }) {
  const { format, can } = useWorkspace();
  return (
    <Section title="Messages" shown={detail.messages !== null} empty={detail.messages?.length === 0}>
      <Table aria-label="Messages">
        <Table.Tbody>
          {detail.messages?.map((message) => (
            <Table.Tr key={message.id}>
              <Table.Td>{format.moment(message.sent_at ?? message.created_at)}</Table.Td>
              <Table.Td>{message.direction === 'inbound' ? `From ${message.from_address ?? 'the guest'}` : `To ${message.to_address}`}</Table.Td>
              <Table.Td>
                {message.subject}
                {/* What the guest wrote (e.g. why they ask to cancel): the host reads it here. */}
                {message.direction === 'inbound' && message.body && <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>{message.body}</Text>}
              </Table.Td>
              <Table.Td>{message.channel} · {message.status}</Table.Td>
              {/* The answer is written in the inbox, beside the whole conversation. */}
              <Table.Td>{message.direction === 'inbound' && can('messages', 'write') && (
                <Anchor component={Link} to={threadPath({ kind: 'booking', bookingId: detail.booking.id })} size="sm">Reply</Anchor>
              )}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Section>
  );
}

function Changes({ detail }: { detail: BookingDetail }) {
  const { format } = useWorkspace();
  return (
    <Section title="Change log" shown={detail.changes !== null} empty={detail.changes?.length === 0}>
      <Stack gap={4}>
        {detail.changes?.map((change) => (
          <Text size="sm" key={change.id}>{format.moment(change.created_at)} — {change.what}{change.user_id ? '' : ' (API or system)'}</Text>
        ))}
      </Stack>
    </Section>
  );
}
