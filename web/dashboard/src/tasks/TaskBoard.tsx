/**
 * Tasks (/admin/tasks): the board of a day — the tasks of the bookings due that day (in the organization's time zone),
 * one card per unit, each task with who does it (**Assigned to**, a member) and **Mark done**; a unit can be picked
 * to see only its tasks. Below, the organization's task templates (./TaskTemplates.tsx).
 */
import { useState } from 'react';
import { Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { assignTask, loadDayTasks, loadMembers, loadUnits, setTaskDone, type BookingTask, type MemberName } from './queries';
import { useMemberChoices } from './member-choices';
import { TaskDoneButton } from './TaskDoneButton';
import { TaskState } from './TaskState';
import { TaskTemplates } from './TaskTemplates';
import { ToDos } from './ToDos';

/** The day's tasks per unit, in the order of the units' first task. */
function perUnit(tasks: readonly BookingTask[]): [string, BookingTask[]][] {
  const units = new Map<string, BookingTask[]>();
  for (const task of tasks) units.set(task.unitId ?? '', [...(units.get(task.unitId ?? '') ?? []), task]);
  return [...units];
}

export function TaskBoard() {
  const { t } = useTranslation(['tasks', 'common']);
  const { can, format } = useWorkspace();
  const [day, setDay] = useState(format.today());
  const [unitId, setUnitId] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const tasks = useLoad(() => loadDayTasks(day, format), [day, format]);
  const units = useLoad(() => loadUnits(format.locale), [format]);
  const mayComplete = can('calendar_event_tasks', 'write');
  const mayAssign = mayComplete && can('members');
  const mayReadTemplates = can('task_templates') && can('task_template_assignees');
  const members = useLoad(async () => (mayAssign ? loadMembers() : []), [mayAssign]);
  const unitName = (id: string) => units.data?.find((unit) => unit.id === id)?.name ?? t('board.unknownUnit');
  const shown = tasks.data?.filter((task) => !unitId || task.unitId === unitId);

  const assign = async (task: BookingTask, memberId: string | null) => {
    setError(null);
    try {
      await assignTask(task.id, memberId);
      tasks.reload();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Stack>
      <Title order={2}>{t('board.title')}</Title>
      <Text size="sm" c="dimmed">{t('board.intro')}</Text>
      <Group align="flex-end" wrap="wrap">
        <Button variant="default" onClick={() => setDay(addDays(day, -1))} aria-label={t('board.previousDay')}>←</Button>
        <TextInput type="date" label={t('board.day')} value={day} onChange={(event) => event.currentTarget.value && setDay(event.currentTarget.value)} w={170} />
        <Button variant="default" onClick={() => setDay(addDays(day, 1))} aria-label={t('board.nextDay')}>→</Button>
        <Button variant="subtle" onClick={() => setDay(format.today())}>{t('common:today')}</Button>
        <Select label={t('board.unit')} placeholder={t('board.allUnits')} clearable value={unitId} onChange={setUnitId} w={240}
          data={(units.data ?? []).map((unit) => ({ value: unit.id, label: unit.name }))} />
      </Group>
      <Title order={3} size="h4">{format.date(day)}</Title>
      <ErrorAlert error={tasks.error ?? units.error ?? members.error} title={t('board.loadFailed')} />
      <ErrorAlert error={error} title={t('board.saveFailed')} />
      {shown === undefined && tasks.loading && <Loader size="sm" role="status" aria-label={t('board.title')} />}
      {shown?.length === 0 && <Text c="dimmed">{t('board.empty')}</Text>}
      {shown && shown.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {perUnit(shown).map(([id, list]) => (
            <Card key={id} withBorder component="section" aria-label={unitName(id)} data-unit-id={id}>
              <Title order={4} size="h5" mb="xs">{unitName(id)}</Title>
              <Stack gap="sm">
                {list.map((task) => (
                  <Group key={task.id} justify="space-between" wrap="wrap" gap="xs" data-task-id={task.id}>
                    <Stack gap={2}>
                      <Group gap="xs"><Text fw={600}>{task.label}</Text><TaskState done={task.done} /></Group>
                      <Text size="sm" c="dimmed">{t('task.due', { moment: format.moment(task.dueAt) })}</Text>
                    </Stack>
                    <Group gap="xs" wrap="nowrap">
                      {mayAssign && <AssigneeSelect task={task} members={members.data ?? []} onAssign={(memberId) => void assign(task, memberId)} />}
                      {mayComplete && <TaskDoneButton task={task} setDone={(done) => setTaskDone(task.id, done)} onChanged={tasks.reload} onError={setError} />}
                    </Group>
                  </Group>
                ))}
              </Stack>
            </Card>
          ))}
        </SimpleGrid>
      )}
      {can('tasks') && <ToDos unitId={unitId} />}
      {mayReadTemplates && <TaskTemplates />}
    </Stack>
  );
}

function AssigneeSelect({ task, members, onAssign }: { task: BookingTask; members: readonly MemberName[]; onAssign: (memberId: string | null) => void }) {
  const { t } = useTranslation('tasks');
  const choices = useMemberChoices(members);
  return (
    <Select aria-label={t('board.assignee', { task: task.label })} placeholder={t('board.nobody')} clearable w={200} size="sm"
      value={task.assigneeId} onChange={onAssign} data={choices} />
  );
}
