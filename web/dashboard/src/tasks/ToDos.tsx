/**
 * The to-dos (./todo-queries.ts): on the tasks board every open one — with **Add to-do** (title, details, unit, due
 * day, priority, members), the members, **Mark done** and **Delete** — and on My tasks the ones assigned to the
 * reader, to mark done. The board's unit filter narrows them too.
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Card, Group, Loader, MultiSelect, Select, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useAction } from '../common/use-action';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { useMemberChoices } from './member-choices';
import { loadMembers, loadUnits } from './queries';
import { TaskDoneButton } from './TaskDoneButton';
import { TaskState } from './TaskState';
import { addToDo, loadToDos, PRIORITIES, removeToDo, setAssignees, setToDoDone, type NewToDo, type ToDo } from './todo-queries';

const EMPTY: NewToDo = { title: '', description: '', priority: 'normal', dueDay: null, unitId: null, assigneeIds: [] };

export function ToDos({ unitId = null, mine = false }: { unitId?: string | null; mine?: boolean }) {
  const { t } = useTranslation(['tasks', 'common']);
  const { can, format, session } = useWorkspace();
  const todos = useLoad(() => loadToDos(format, mine ? session.member.id : undefined), [format, mine, session.member.id]);
  const units = useLoad(() => loadUnits(format.locale), [format]);
  const mayWrite = can('tasks', 'write');
  const mayManage = !mine && mayWrite && can('task_assignees', 'write') && can('members');
  const members = useLoad(async () => (mayManage ? loadMembers() : []), [mayManage]);
  const memberChoices = useMemberChoices(members.data ?? []);
  const action = useAction(todos.reload);
  const [draft, setDraft] = useState<NewToDo>(EMPTY);
  const unitName = (id: string | null) => (id ? units.data?.find((unit) => unit.id === id)?.name ?? t('board.unknownUnit') : null);
  const shown = todos.data?.filter((todo) => !unitId || todo.unitId === unitId);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (await action.run('add', () => addToDo(draft, format))) setDraft(EMPTY);
  };

  return (
    <Card withBorder component="section" aria-label={t('todos.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">{t('todos.title')}</Title>
        {!mine && <Text size="sm" c="dimmed">{t('todos.intro')}</Text>}
        <ErrorAlert error={todos.error ?? members.error} title={t('todos.loadFailed')} />
        <ErrorAlert error={action.error} title={t('board.saveFailed')} />
        {shown === undefined && todos.loading && <Loader size="sm" role="status" aria-label={t('todos.title')} />}
        {shown?.length === 0 && <Text c="dimmed">{t('todos.none')}</Text>}
        {shown?.map((todo) => <ToDoLine key={todo.id} todo={todo} unit={unitName(todo.unitId)} mayWrite={mayWrite} mayManage={mayManage}
          memberChoices={memberChoices} run={action.run} busy={action.busy} onChanged={todos.reload} onError={action.setError} />)}
        {mayManage && (
          <form onSubmit={(event) => void add(event)}>
            <Stack gap="xs">
              <Group align="flex-end" wrap="wrap">
                <TextInput label={t('todos.newTitle')} required value={draft.title} w={260}
                  onChange={(event) => setDraft({ ...draft, title: event.currentTarget.value })} />
                <Select label={t('board.unit')} placeholder={t('todos.noUnit')} clearable w={220} value={draft.unitId}
                  onChange={(value) => setDraft({ ...draft, unitId: value })} data={(units.data ?? []).map((unit) => ({ value: unit.id, label: unit.name }))} />
                <TextInput type="date" label={t('todos.due')} w={170} value={draft.dueDay ?? ''}
                  onChange={(event) => setDraft({ ...draft, dueDay: event.currentTarget.value || null })} />
                <Select label={t('todos.priority')} allowDeselect={false} w={150} value={draft.priority}
                  onChange={(value) => value && setDraft({ ...draft, priority: value as NewToDo['priority'] })}
                  data={PRIORITIES.map((priority) => ({ value: priority, label: t(`priority.${priority}`) }))} />
                <MultiSelect label={t('todos.assignees')} w={260} value={draft.assigneeIds} data={memberChoices}
                  onChange={(assigneeIds) => setDraft({ ...draft, assigneeIds })} />
              </Group>
              <Textarea label={t('todos.description')} autosize minRows={1} value={draft.description}
                onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value })} />
              <Group><Button type="submit" loading={action.busy === 'add'}>{t('todos.add')}</Button></Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Card>
  );
}

interface ToDoLineProps {
  todo: ToDo;
  unit: string | null;
  mayWrite: boolean;
  mayManage: boolean;
  memberChoices: { value: string; label: string }[];
  run: (name: string, action: () => Promise<unknown>) => Promise<boolean>;
  busy: string | null;
  onChanged: () => void;
  onError: (error: unknown) => void;
}

function ToDoLine({ todo, unit, mayWrite, mayManage, memberChoices, run, busy, onChanged, onError }: ToDoLineProps) {
  const { t } = useTranslation('tasks');
  const { format } = useWorkspace();
  const overdue = !todo.done && todo.dueDay !== null && todo.dueDay < format.today();
  return (
    <Group justify="space-between" wrap="wrap" gap="xs" data-todo-id={todo.id}>
      <Stack gap={2} maw={420}>
        <Group gap="xs">
          <Text fw={600} td={todo.done ? 'line-through' : undefined}>{todo.title}</Text>
          <TaskState done={todo.done} />
          {todo.priority !== 'normal' && <Badge variant="light" color={todo.priority === 'low' ? 'gray' : 'red'}>{t(`priority.${todo.priority}`)}</Badge>}
        </Group>
        {unit && <Text size="sm">{unit}</Text>}
        <Text size="sm" c={overdue ? 'red.9' : 'dimmed'}>{todo.dueDay ? t('todos.dueOn', { date: format.date(todo.dueDay) }) : t('todos.noDue')}</Text>
        {todo.description && <Text size="sm" style={{ whiteSpace: 'pre-line' }}>{todo.description}</Text>}
      </Stack>
      <Group gap="xs" wrap="nowrap">
        {mayManage && <MultiSelect aria-label={t('todos.assigneesLabel', { task: todo.title })} placeholder={t('board.nobody')} w={240} size="sm"
          value={todo.assigneeIds} data={memberChoices} disabled={busy === todo.id}
          onChange={(assigneeIds) => void run(todo.id, () => setAssignees(todo.id, todo.assigneeIds, assigneeIds))} />}
        {mayWrite && <TaskDoneButton task={{ label: todo.title, done: todo.done }} setDone={(done) => setToDoDone(todo.id, done)} onChanged={onChanged} onError={onError} />}
        {mayManage && <Button size="sm" variant="subtle" color="red" loading={busy === `remove-${todo.id}`} aria-label={t('todos.removeLabel', { task: todo.title })}
          onClick={() => void run(`remove-${todo.id}`, () => removeToDo(todo.id))}>{t('todos.remove')}</Button>}
      </Group>
    </Group>
  );
}
