/**
 * The to-dos: free-standing tasks (`tasks`) — repairs, purchases, anything not tied to a booking — optionally for a
 * unit, due on a day, with any number of members (`task_assignees`). Like ./queries.ts, every request names task
 * tables and units only, so field staff (who read and complete only the to-dos assigned to them, migration 0141)
 * need nothing more.
 */
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { database, rowsOf, valuesOf, type Enums, type Selected } from '../api/database';
import { addDays } from '../common/dates';
import type { Formatter } from '../common/format';

dayjs.extend(utc);
dayjs.extend(timezone);

export type Priority = Enums<'tasks_priority'>;
/** The priorities, in the order the form offers them and the list sorts by (most pressing first). */
export const PRIORITIES = valuesOf<'tasks_priority'>()('urgent', 'high', 'normal', 'low');

const TODO_SELECT = 'id,title,description,priority,due_at,completed_at,product_id,task_assignees(id,member_id)';
type ToDoRow = Selected<'tasks', typeof TODO_SELECT>;

export interface ToDo {
  id: string;
  title: string;
  description: string;
  priority: Priority;
  /** The day it is due in the organization's time zone, or null. */
  dueDay: string | null;
  done: boolean;
  unitId: string | null;
  assigneeIds: string[];
}

const toToDo = (format: Formatter) => (row: ToDoRow): ToDo => ({
  id: row.id, title: row.title, description: row.description, priority: row.priority,
  dueDay: row.due_at ? format.dayOf(row.due_at) : null, done: row.completed_at !== null, unitId: row.product_id,
  assigneeIds: row.task_assignees.map((assignee) => assignee.member_id),
});

/** Open first by due day (none last) and priority; then the ones done since yesterday, so what was just done stays in sight. */
function ordered(todos: ToDo[]): ToDo[] {
  const rank = (todo: ToDo) => [todo.done ? 1 : 0, todo.dueDay ?? '9999', PRIORITIES.indexOf(todo.priority)] as const;
  return todos.sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1].localeCompare(y[1]) || x[2] - y[2];
  });
}

const LIMIT = 500;

/** Every open to-do and those completed since yesterday; with `memberId`, only the ones assigned to that member. */
export async function loadToDos(format: Formatter, memberId?: string): Promise<ToDo[]> {
  let query = database.from('tasks').select(memberId ? TODO_SELECT.replace('task_assignees(', 'task_assignees!inner(') as typeof TODO_SELECT : TODO_SELECT)
    .or(`completed_at.is.null,completed_at.gte.${addDays(format.today(), -1)}`);
  if (memberId) query = query.eq('task_assignees.member_id', memberId);
  const rows: ToDoRow[] = rowsOf(await query.order('created_at').order('id').limit(LIMIT));
  return ordered(rows.map(toToDo(format)));
}

export interface NewToDo {
  title: string;
  description: string;
  priority: Priority;
  dueDay: string | null;
  unitId: string | null;
  assigneeIds: string[];
}

/** Noon of `day` in the organization's time zone: the moment a to-do due that day is stored with. */
const dueMoment = (day: string, format: Formatter) => dayjs.tz(`${day} 12:00`, format.timeZone).toISOString();

/** The to-do, then its members. */
export async function addToDo(todo: NewToDo, format: Formatter): Promise<void> {
  const created = rowsOf(await database.from('tasks').insert({
    title: todo.title.trim(), description: todo.description.trim(), priority: todo.priority,
    due_at: todo.dueDay ? dueMoment(todo.dueDay, format) : null, product_id: todo.unitId,
  }).select('id').single());
  await setAssignees(created.id, [], todo.assigneeIds);
}

/** Adds the members newly chosen and removes the ones taken off. */
export async function setAssignees(taskId: string, before: readonly string[], after: readonly string[]): Promise<void> {
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  if (added.length > 0) rowsOf(await database.from('task_assignees').insert(added.map((memberId) => ({ task_id: taskId, member_id: memberId }))));
  if (removed.length > 0) rowsOf(await database.from('task_assignees').delete().eq('task_id', taskId).in('member_id', removed));
}

export async function setToDoDone(taskId: string, done: boolean): Promise<void> {
  rowsOf(await database.from('tasks').update({ completed_at: done ? new Date().toISOString() : null }).eq('id', taskId));
}

export async function removeToDo(taskId: string): Promise<void> {
  rowsOf(await database.from('tasks').delete().eq('id', taskId));
}
