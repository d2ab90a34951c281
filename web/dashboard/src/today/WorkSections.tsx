/**
 * What waits for the manager today: booking requests (answered right here, as on the booking page), overdue payments,
 * tasks due today, iCal calendars with sync problems, and this month against the same month last year. Each item
 * links to where it is handled.
 */
import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { mayAnswerRequests, RequestButtons } from '../bookings/RequestButtons';
import { monthStart } from '../common/dates';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadMonthComparison, loadOverduePayments, loadRequests, loadSyncProblems, loadTasksDueToday } from './queries';
import { Section } from './Section';

const none = (text: string) => (rows: readonly unknown[]) => (rows.length === 0 ? text : null);

export function Requests() {
  const { can, format } = useWorkspace();
  const today = format.today();
  const loaded = useLoad(() => loadRequests(can, today, format.locale), [can, today, format]);
  return (
    <Section title="Requests waiting for you" loaded={loaded} empty={none('No booking request is waiting.')} handledAt={{ to: '/bookings', label: 'All bookings' }}>
      {(requests) => requests.map((request) => (
        <Stack key={request.bookingId} gap={4} data-booking-id={request.bookingId}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={`/bookings/${request.bookingId}`} fw={600}>{request.guest ?? request.reference}</Anchor>
            <Text size="sm">{request.unit}</Text>
            <Text size="sm" c="dimmed">{format.date(request.start)} – {format.date(request.end)} · {request.guests === 1 ? '1 guest' : `${request.guests} guests`} · asked {format.moment(request.requestedAt)}</Text>
          </Group>
          {mayAnswerRequests(can) && (
            <RequestButtons bookingId={request.bookingId} onAnswered={loaded.reload} labels={{ confirm: 'Accept', decline: 'Decline' }}
              name={`request ${request.reference}`} size="xs" />
          )}
        </Stack>
      ))}
    </Section>
  );
}

export function OverduePayments() {
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadOverduePayments(can, new Date()), [can]);
  return (
    <Section title="Payments overdue" loaded={loaded} empty={none('No payment is overdue.')}>
      {(payments) => payments.map((payment) => (
        <Group key={payment.id} gap="xs" wrap="wrap" data-payment-id={payment.id}>
          <Anchor component={Link} to={`/bookings/${payment.bookingId}`} fw={600}>{payment.guest ?? payment.reference ?? 'Booking'}</Anchor>
          <Text size="sm">{format.money(payment.amount, payment.currency)}</Text>
          <Text size="sm" c="red.9">due {format.moment(payment.dueAt)}</Text>
          {payment.status !== 'pending' && <Text size="sm" c="dimmed">{payment.status}</Text>}
        </Group>
      ))}
    </Section>
  );
}

export function TasksDueToday() {
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadTasksDueToday(can, format), [can, format]);
  return (
    <Section title="Tasks due today" loaded={loaded} empty={none('No task is due today.')} handledAt={can('calendar_events') ? { to: '/', label: 'Tasks on the calendar' } : undefined}>
      {(tasks) => tasks.map((task) => (
        <Group key={task.id} gap="xs" wrap="wrap" data-task-id={task.id}>
          <Text size="sm" aria-label={task.done ? 'done' : 'open'}>{task.done ? '✓' : '○'}</Text>
          {task.bookingId && can('bookings')
            ? <Anchor component={Link} to={`/bookings/${task.bookingId}`} size="sm" fw={600}>{task.label}</Anchor>
            : <Text size="sm" fw={600}>{task.label}</Text>}
          {task.unit && <Text size="sm">{task.unit}</Text>}
          <Text size="sm" c="dimmed">{format.moment(task.dueAt)}</Text>
        </Group>
      ))}
    </Section>
  );
}

export function SyncProblems() {
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadSyncProblems(can, format.locale), [can, format]);
  return (
    <Section title="iCal sync problems" loaded={loaded} empty={none('Every imported calendar synced without problems.')} handledAt={{ to: '/settings/ical', label: 'Open iCal feeds' }}>
      {(problems) => problems.map((problem) => (
        <Stack key={problem.id} gap={0} data-calendar-id={problem.id}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to="/settings/ical" size="sm" fw={600}>{problem.name ?? 'Imported calendar'}</Anchor>
            {problem.unit && <Text size="sm">{problem.unit}</Text>}
            <Text size="sm" c="dimmed">last sync {format.moment(problem.lastSynced)}</Text>
          </Group>
          <Text size="sm" c="red.9" style={{ whiteSpace: 'pre-line' }} lineClamp={3}>{problem.error}</Text>
        </Stack>
      ))}
    </Section>
  );
}

export function ThisMonth() {
  const { format, locale, currency: organizationCurrency } = useWorkspace();
  const month = monthStart(format.today());
  const loaded = useLoad(() => loadMonthComparison(month, organizationCurrency), [month, organizationCurrency]);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const share = (value: number | null) => (value === null ? '—' : percent.format(value));
  const lastYear = String(Number(month.slice(0, 4)) - 1);
  return (
    <Section title={`This month: ${format.month(month)}`} loaded={loaded} empty={() => null} handledAt={{ to: '/reports', label: 'Open reports' }}>
      {({ comparison, currency }) => (
        <SimpleGrid cols={2}>
          <div>
            <Text size="sm" c="dimmed">Occupancy</Text>
            <Text size="xl" fw={700} data-figure="occupancy">{share(comparison.current.occupancy)}</Text>
            <Text size="sm" c="dimmed" data-figure="occupancy-last-year">{lastYear}: {share(comparison.lastYear.occupancy)}</Text>
          </div>
          <div>
            <Text size="sm" c="dimmed">Revenue</Text>
            <Text size="xl" fw={700} data-figure="revenue">{format.money(comparison.current.revenue, currency)}</Text>
            <Text size="sm" c="dimmed" data-figure="revenue-last-year">{lastYear}: {format.money(comparison.lastYear.revenue, currency)}</Text>
          </div>
        </SimpleGrid>
      )}
    </Section>
  );
}
