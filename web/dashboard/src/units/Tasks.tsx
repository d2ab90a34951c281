/**
 * The tasks a unit's bookings bring (`product_tasks`): e.g. "Cleaning" 2 hours after departure, for a member. Each
 * booking gets them as tasks on the calendar (docs/automations.md).
 */
import { useState } from 'react';
import { Button, Card, Group, NumberInput, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { database, rowsOf, valuesOf, type Enums } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';

const SCHEDULES = valuesOf<'product_tasks_schedule'>()('departure', 'arrival', 'confirmation', 'custom');
const SCHEDULE_LABELS: Record<Enums<'product_tasks_schedule'>, string> = {
  departure: 'after departure', arrival: 'after arrival', confirmation: 'after confirmation', custom: 'custom',
};

export function Tasks({ unitId }: { unitId: string }) {
  const { can } = useWorkspace();
  const mayWrite = can('product_tasks', 'write');
  const tasks = useLoad(async () => rowsOf(await database.from('product_tasks').select('id,label,schedule,offset_minutes,assignee_id,active')
    .eq('product_id', unitId).order('created_at')), [unitId]);
  const members = useLoad(async () => can('members') ? rowsOf(await database.from('members').select('id,name,role').eq('active', true).order('name')) : [], [can]);
  const [label, setLabel] = useState('Cleaning');
  const [schedule, setSchedule] = useState<Enums<'product_tasks_schedule'>>('departure');
  const [hours, setHours] = useState<number | string>(0);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const nameOf = (id: string | null) => members.data?.find((member) => member.id === id)?.name ?? (id ? 'a member' : 'nobody');

  const write = async (action: () => PromiseLike<Parameters<typeof rowsOf>[0]>) => {
    setError(null);
    try {
      rowsOf(await action());
      tasks.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const add = () => write(() => database.from('product_tasks').insert({
    product_id: unitId, label: label.trim(), schedule, offset_minutes: Math.round(Number(hours) * 60), assignee_id: assignee,
  }));

  return (
    <Card withBorder component="section" aria-label="Tasks">
      <Stack>
        <Title order={3} size="h4">Tasks</Title>
        <ErrorAlert error={tasks.error ?? error} title="Tasks" />
        {tasks.data?.length === 0 && <Text size="sm" c="dimmed">No tasks: bookings of this unit bring none.</Text>}
        {tasks.data && tasks.data.length > 0 && (
          <Table aria-label="Tasks of each booking">
            <Table.Thead><Table.Tr><Table.Th>Task</Table.Th><Table.Th>When</Table.Th><Table.Th>Assigned to</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {tasks.data.map((task) => (
                <Table.Tr key={task.id}>
                  <Table.Td>{task.label}{!task.active && ' (inactive)'}</Table.Td>
                  <Table.Td>{task.offset_minutes / 60} h {SCHEDULE_LABELS[task.schedule]}</Table.Td>
                  <Table.Td>{nameOf(task.assignee_id)}</Table.Td>
                  <Table.Td>{mayWrite && <Button size="xs" variant="outline" color="red" aria-label={`Remove task ${task.label}`}
                    onClick={() => void write(() => database.from('product_tasks').delete().eq('id', task.id))}>Remove</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {mayWrite && (
          <form onSubmit={(event) => { event.preventDefault(); void add(); }}>
            <Group align="flex-end" wrap="wrap">
              <TextInput label="Task" required value={label} onChange={(event) => setLabel(event.currentTarget.value)} />
              <NumberInput label="Hours (negative: before)" w={170} value={hours} onChange={setHours} />
              <Select label="After" w={200} allowDeselect={false} value={schedule} onChange={(value) => value && setSchedule(value as typeof schedule)}
                data={SCHEDULES.map((value) => ({ value, label: SCHEDULE_LABELS[value] }))} />
              <Select label="Assigned to" w={220} clearable placeholder="nobody" value={assignee} onChange={setAssignee}
                data={(members.data ?? []).map((member) => ({ value: member.id, label: `${member.name} (${member.role})` }))} />
              <Button type="submit">Add task</Button>
            </Group>
          </form>
        )}
      </Stack>
    </Card>
  );
}
