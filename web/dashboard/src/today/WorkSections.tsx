/**
 * What waits for the manager today: booking requests (answered right here, as on the booking page), overdue payments,
 * tasks due today, iCal calendars with sync problems, and this month against the same month last year. Each item
 * links to where it is handled.
 */
import { Anchor, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { mayAnswerRequests, RequestButtons } from '../bookings/RequestButtons';
import { monthStart } from '../common/dates';
import { Link } from '../common/router';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadMonthComparison, loadOverduePayments, loadRequests, loadSyncProblems, loadTasksDueToday } from './queries';
import { Section } from './Section';
import { mayUseTaskBoard } from '../tasks/board-access';

/** A task's mark; its accessible name says the same in words. */
const TASK_MARKS = { done: '✓', open: '○' };

const none = (text: string) => (rows: readonly unknown[]) => (rows.length === 0 ? text : null);

export function Requests() {
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const today = format.today();
  const loaded = useLoad(() => loadRequests(can, today, format.locale), [can, today, format]);
  return (
    <Section title={t('requests.title')} loaded={loaded} empty={none(t('requests.none'))} handledAt={{ to: '/bookings', label: t('stays.allBookings') }}>
      {(requests) => requests.map((request) => (
        <Stack key={request.bookingId} gap={4} data-booking-id={request.bookingId}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={`/bookings/${request.bookingId}`} fw={600}>{request.guest ?? request.reference}</Anchor>
            <Text size="sm">{request.unit}</Text>
            <Text size="sm" c="dimmed">
              {[`${format.date(request.start)} – ${format.date(request.end)}`, t('stays.guests', { count: request.guests }), t('requests.asked', { moment: format.moment(request.requestedAt) })].join(' · ')}
            </Text>
          </Group>
          {mayAnswerRequests(can) && (
            <RequestButtons bookingId={request.bookingId} onAnswered={loaded.reload} labels={{ confirm: t('requests.accept'), decline: t('requests.decline') }}
              name={t('requests.name', { reference: request.reference })} size="xs" />
          )}
        </Stack>
      ))}
    </Section>
  );
}

export function OverduePayments() {
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadOverduePayments(can, new Date()), [can]);
  return (
    <Section title={t('overdue.title')} loaded={loaded} empty={none(t('overdue.none'))}>
      {(payments) => payments.map((payment) => (
        <Group key={payment.id} gap="xs" wrap="wrap" data-payment-id={payment.id}>
          <Anchor component={Link} to={`/bookings/${payment.bookingId}`} fw={600}>{payment.guest ?? payment.reference ?? t('overdue.booking')}</Anchor>
          <Text size="sm">{format.money(payment.amount, payment.currency)}</Text>
          <Text size="sm" c="red.9">{t('overdue.due', { moment: format.moment(payment.dueAt) })}</Text>
          {payment.status !== 'pending' && <Text size="sm" c="dimmed">{t(`overdue.status.${payment.status}`)}</Text>}
        </Group>
      ))}
    </Section>
  );
}

export function TasksDueToday() {
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadTasksDueToday(can, format), [can, format]);
  const mayOpenBookings = can('bookings');
  return (
    <Section title={t('tasks.title')} loaded={loaded} empty={none(t('tasks.none'))} handledAt={mayUseTaskBoard(can) ? { to: '/tasks', label: t('tasks.onBoard') } : { to: '/my-tasks', label: t('tasks.onMyTasks') }}>
      {(tasks) => tasks.map((task) => (
        <Group key={task.id} gap="xs" wrap="wrap" data-task-id={task.id}>
          <Text size="sm" aria-label={task.done ? t('tasks.done') : t('tasks.open')}>{task.done ? TASK_MARKS.done : TASK_MARKS.open}</Text>
          {task.bookingId && mayOpenBookings
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
  const { t } = useTranslation('today');
  const { can, format } = useWorkspace();
  const loaded = useLoad(() => loadSyncProblems(can, format.locale), [can, format]);
  return (
    <Section title={t('sync.title')} loaded={loaded} empty={none(t('sync.none'))} handledAt={{ to: '/settings/ical', label: t('sync.open') }}>
      {(problems) => problems.map((problem) => (
        <Stack key={problem.id} gap={0} data-calendar-id={problem.id}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to="/settings/ical" size="sm" fw={600}>{problem.name ?? t('sync.calendar')}</Anchor>
            {problem.unit && <Text size="sm">{problem.unit}</Text>}
            <Text size="sm" c="dimmed">{t('sync.lastSync', { moment: format.moment(problem.lastSynced) })}</Text>
          </Group>
          <Text size="sm" c="red.9" style={{ whiteSpace: 'pre-line' }} lineClamp={3}>{problem.error}</Text>
        </Stack>
      ))}
    </Section>
  );
}

export function ThisMonth() {
  const { t } = useTranslation('today');
  const { format, locale, currency: organizationCurrency } = useWorkspace();
  const month = monthStart(format.today());
  const loaded = useLoad(() => loadMonthComparison(month, organizationCurrency), [month, organizationCurrency]);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const share = (value: number | null) => (value === null ? '—' : percent.format(value));
  const lastYear = String(Number(month.slice(0, 4)) - 1);
  return (
    <Section title={t('month.title', { month: format.month(month) })} loaded={loaded} empty={() => null} handledAt={{ to: '/reports', label: t('month.open') }}>
      {({ comparison, currency }) => (
        <SimpleGrid cols={2}>
          <div>
            <Text size="sm" c="dimmed">{t('month.occupancy')}</Text>
            <Text size="xl" fw={700} data-figure="occupancy">{share(comparison.current.occupancy)}</Text>
            <Text size="sm" c="dimmed" data-figure="occupancy-last-year">{lastYear}: {share(comparison.lastYear.occupancy)}</Text>
          </div>
          <div>
            <Text size="sm" c="dimmed">{t('month.revenue')}</Text>
            <Text size="xl" fw={700} data-figure="revenue">{format.money(comparison.current.revenue, currency)}</Text>
            <Text size="sm" c="dimmed" data-figure="revenue-last-year">{lastYear}: {format.money(comparison.lastYear.revenue, currency)}</Text>
          </div>
        </SimpleGrid>
      )}
    </Section>
  );
}
