/**
 * My tasks (/admin/my-tasks): a cleaner's page on their phone — the tasks assigned to them, by day, each with its
 * unit, when it is due and one button to mark it done; below, their to-dos (./ToDos.tsx). It reads only task tables and the units' names
 * (./queries.ts), so the field-staff permissions suffice and no guest's data reaches the phone.
 */
import { useState } from 'react';
import { Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadMemberTasks, setTaskDone, type BookingTask } from './queries';
import { TaskDoneButton } from './TaskDoneButton';
import { TaskState } from './TaskState';
import { ToDos } from './ToDos';

/** The open tasks due before today under "Overdue", the others under their day, in order. */
function byDay(tasks: readonly BookingTask[], dayOf: (moment: string) => string, today: string): [string, BookingTask[]][] {
  const days = new Map<string, BookingTask[]>();
  for (const task of tasks) {
    const day = dayOf(task.dueAt);
    const key = day < today && !task.done ? 'overdue' : day;
    days.set(key, [...(days.get(key) ?? []), task]);
  }
  return [...days].sort(([a], [b]) => (a === 'overdue' ? -1 : b === 'overdue' ? 1 : a.localeCompare(b)));
}

export function MyTasks() {
  const { t } = useTranslation('tasks');
  const { session, format, can } = useWorkspace();
  const tasks = useLoad(() => loadMemberTasks(session.member.id, format), [session.member.id, format]);
  const [error, setError] = useState<unknown>(null);
  const today = format.today();
  const open = tasks.data?.filter((task) => !task.done) ?? [];

  return (
    <Stack maw={640}>
      <Title order={2}>{t('mine.title')}</Title>
      <Text size="sm" c="dimmed">{t('mine.intro')}</Text>
      <ErrorAlert error={tasks.error} title={t('mine.loadFailed')} />
      <ErrorAlert error={error} title={t('board.saveFailed')} />
      {tasks.data === undefined && tasks.loading && <Loader size="sm" role="status" aria-label={t('mine.title')} />}
      {tasks.data && open.length === 0 && <Text>{t('mine.empty')}</Text>}
      {tasks.data && byDay(tasks.data, format.dayOf, today).map(([day, list]) => {
        const heading = day === 'overdue' ? t('mine.overdue') : format.date(day);
        return (
          <Stack key={day} gap="xs" component="section" aria-label={heading}>
            <Title order={3} size="h5" c={day === 'overdue' ? 'red' : undefined}>{heading}</Title>
            {list.map((task) => (
              <Card key={task.id} withBorder padding="sm" data-task-id={task.id}>
                <Group justify="space-between" wrap="nowrap" align="center">
                  <Stack gap={2}>
                    <Group gap="xs"><Text fw={600} td={task.done ? 'line-through' : undefined}>{task.label}</Text><TaskState done={task.done} /></Group>
                    {task.unit && <Text size="sm">{task.unit}</Text>}
                    <Text size="sm" c="dimmed">{t('task.due', { moment: format.moment(task.dueAt) })}</Text>
                  </Stack>
                  <TaskDoneButton task={task} setDone={(done) => setTaskDone(task.id, done)} onChanged={tasks.reload} onError={setError} />
                </Group>
              </Card>
            ))}
          </Stack>
        );
      })}
      {can('tasks') && <ToDos mine />}
    </Stack>
  );
}
