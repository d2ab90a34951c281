/**
 * The tasks a unit's bookings bring (`product_tasks`): e.g. "Cleaning" 2 hours after departure, for a member. Each
 * booking gets them as tasks on the calendar and the task board (docs/automations.md). A task can be made from one
 * of the organization's task templates (tasks/TaskTemplates.tsx): it takes the template's words and moment, and
 * without an assignee of its own goes to the template's first default member — the engine's rule (migration 0110).
 */
import { useState } from 'react';
import { Button, Card, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { loadMembers, loadTemplates, SCHEDULES, type Schedule, type TaskTemplate } from '../tasks/queries';
import { useScheduleText } from '../tasks/schedule-text';

export function Tasks({ unitId }: { unitId: string }) {
  const { t } = useTranslation(['tasks', 'common']);
  const { can } = useWorkspace();
  const scheduleText = useScheduleText();
  const mayWrite = can('product_tasks', 'write');
  const tasks = useLoad(async () => rowsOf(await database.from('product_tasks').select('id,label,schedule,offset_minutes,assignee_id,task_template_id,active')
    .eq('product_id', unitId).order('created_at')), [unitId]);
  const members = useLoad(async () => (can('members') ? loadMembers() : []), [can]);
  const templates = useLoad(async () => (can('task_templates') && can('task_template_assignees') ? loadTemplates() : []), [can]);
  const [templateId, setTemplateId] = useState<string | null>(null);
  const [label, setLabel] = useState<string>(() => t('unit.defaultLabel'));
  const [schedule, setSchedule] = useState<Schedule>('departure');
  const [hours, setHours] = useState<number | string>(0);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const nameOf = (id: string) => members.data?.find((member) => member.id === id)?.name ?? t('unit.aMember');
  const templateOf = (id: string | null) => templates.data?.find((template) => template.id === id);

  /** Who gets the unit's task: its own assignee, else its template's first default member (as the engine picks). */
  const assignedTo = (assigneeId: string | null, template: TaskTemplate | undefined) => {
    if (assigneeId) return nameOf(assigneeId);
    const first = template?.assigneeIds[0];
    return first ? t('unit.templateDefault', { names: nameOf(first) }) : t('unit.nobody');
  };

  const pickTemplate = (id: string | null) => {
    setTemplateId(id);
    const template = templateOf(id);
    if (!template) return;
    setLabel(template.label);
    setSchedule(template.schedule);
    setHours(template.offsetMinutes / 60);
  };

  /** Runs a change; true when it was made. */
  const write = async (action: () => PromiseLike<Parameters<typeof rowsOf>[0]>) => {
    setError(null);
    try {
      rowsOf(await action());
      tasks.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  const add = async () => {
    const added = await write(() => database.from('product_tasks').insert({
      product_id: unitId, task_template_id: templateId, label: label.trim(), schedule, offset_minutes: Math.round(Number(hours) * 60), assignee_id: assignee,
    }));
    // The next task is not tied to the template just used unless it is picked again.
    if (added) setTemplateId(null);
  };

  return (
    <Card withBorder component="section" aria-label={t('unit.title')}>
      <Stack>
        <Title order={3} size="h4">{t('unit.title')}</Title>
        <ErrorAlert error={tasks.error ?? templates.error ?? error} title={t('unit.title')} />
        {tasks.data?.length === 0 && <Text size="sm" c="dimmed">{t('unit.none')}</Text>}
        {tasks.data && tasks.data.length > 0 && (
          <Table aria-label={t('unit.table')}>
            <Table.Thead><Table.Tr><Table.Th>{t('unit.task')}</Table.Th><Table.Th>{t('unit.when')}</Table.Th><Table.Th>{t('unit.assignedTo')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {tasks.data.map((task) => (
                <Table.Tr key={task.id}>
                  <Table.Td>{task.label}{!task.active && ` ${t('unit.inactive')}`}</Table.Td>
                  <Table.Td>{scheduleText(task.schedule, task.offset_minutes)}</Table.Td>
                  <Table.Td>{assignedTo(task.assignee_id, templateOf(task.task_template_id))}</Table.Td>
                  <Table.Td>{mayWrite && <Button size="xs" variant="outline" color="red" aria-label={t('unit.removeLabel', { task: task.label })}
                    onClick={() => void write(() => database.from('product_tasks').delete().eq('id', task.id))}>{t('common:remove')}</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {mayWrite && (
          <form onSubmit={(event) => { event.preventDefault(); void add(); }}>
            <Group align="flex-end" wrap="wrap">
              {(templates.data?.length ?? 0) > 0 && (
                <Select label={t('unit.template')} w={220} clearable placeholder={t('unit.noTemplate')} value={templateId} onChange={pickTemplate}
                  data={(templates.data ?? []).map((template) => ({ value: template.id, label: template.label }))} />
              )}
              <TextInput label={t('unit.task')} required value={label} onChange={(event) => setLabel(event.currentTarget.value)} />
              <NumberInput label={t('unit.hours')} w={190} value={hours} onChange={setHours} />
              <Select label={t('unit.after')} w={200} allowDeselect={false} value={schedule} onChange={(value) => value && setSchedule(value as Schedule)}
                data={SCHEDULES.map((value) => ({ value, label: t(`schedule.${value}`) }))} />
              <Select label={t('unit.assignedTo')} w={220} clearable placeholder={t('unit.nobody')} value={assignee} onChange={setAssignee}
                data={(members.data ?? []).map((member) => ({ value: member.id, label: `${member.name} (${member.role})` }))} />
              <Button type="submit">{t('unit.add')}</Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
