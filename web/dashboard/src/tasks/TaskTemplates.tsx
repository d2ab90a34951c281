/**
 * The organization's task templates (`task_templates`) with the members each goes to by default
 * (`task_template_assignees`): added and removed here, put on a unit in the unit's Tasks section (units/Tasks.tsx).
 * A unit's task made from a template without an assignee of its own goes to the template's first default member.
 */
import { useState } from 'react';
import { Button, Card, Group, MultiSelect, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { addTemplate, loadMembers, loadTemplates, removeTemplate, SCHEDULES, type Schedule } from './queries';
import { useScheduleText } from './schedule-text';
import { useMemberChoices } from './member-choices';

export function TaskTemplates() {
  const { t } = useTranslation(['tasks', 'common']);
  const { can } = useWorkspace();
  const scheduleText = useScheduleText();
  const mayWrite = can('task_templates', 'write') && can('task_template_assignees', 'write');
  const templates = useLoad(loadTemplates, []);
  const members = useLoad(async () => (can('members') ? loadMembers() : []), [can]);
  const memberChoices = useMemberChoices(members.data ?? []);
  const [label, setLabel] = useState<string>(() => t('templates.defaultName'));
  const [schedule, setSchedule] = useState<Schedule>('departure');
  const [hours, setHours] = useState<number | string>(0);
  const [assigneeIds, setAssigneeIds] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);
  const namesOf = (ids: readonly string[]) => ids.map((id) => members.data?.find((member) => member.id === id)?.name ?? '…').join(', ');

  /** Runs a change; true when it was made. */
  const write = async (action: () => Promise<void>) => {
    setError(null);
    try {
      await action();
      templates.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };
  const add = async () => {
    const added = await write(() => addTemplate({ label: label.trim(), schedule, offsetMinutes: Math.round(Number(hours) * 60), assigneeIds }));
    // A new template starts from an empty form, not from the one just added.
    if (added) setAssigneeIds([]);
  };

  return (
    <Card withBorder component="section" aria-label={t('templates.title')}>
      <Stack>
        <Title order={3} size="h4">{t('templates.title')}</Title>
        <Text size="sm" c="dimmed">{t('templates.intro')}</Text>
        <ErrorAlert error={templates.error ?? error} title={t('templates.loadFailed')} />
        {templates.data?.length === 0 && <Text size="sm" c="dimmed">{t('templates.none')}</Text>}
        {templates.data && templates.data.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table aria-label={t('templates.title')}>
              <Table.Thead><Table.Tr><Table.Th>{t('templates.label')}</Table.Th><Table.Th>{t('unit.when')}</Table.Th><Table.Th>{t('templates.assignees')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
              <Table.Tbody>
                {templates.data.map((template) => (
                  <Table.Tr key={template.id}>
                    <Table.Td>{template.label}</Table.Td>
                    <Table.Td>{scheduleText(template.schedule, template.offsetMinutes)}</Table.Td>
                    <Table.Td>{template.assigneeIds.length > 0 ? namesOf(template.assigneeIds) : t('board.nobody')}</Table.Td>
                    <Table.Td>{mayWrite && <Button size="xs" variant="outline" color="red" aria-label={t('templates.removeLabel', { template: template.label })}
                      onClick={() => void write(() => removeTemplate(template.id))}>{t('common:remove')}</Button>}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {mayWrite && (
          <form onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}>
            <Group align="flex-end" wrap="wrap">
              <TextInput label={t('templates.label')} required value={label} onChange={(event) => setLabel(event.currentTarget.value)} />
              <NumberInput label={t('templates.hours')} w={190} value={hours} onChange={setHours} />
              <Select label={t('templates.after')} w={200} allowDeselect={false} value={schedule} onChange={(value) => value && setSchedule(value as Schedule)}
                data={SCHEDULES.map((value) => ({ value, label: t(`schedule.${value}`) }))} />
              <MultiSelect label={t('templates.assignees')} w={260} value={assigneeIds} onChange={setAssigneeIds}
                data={memberChoices} />
              <Button type="submit">{t('templates.add')}</Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
