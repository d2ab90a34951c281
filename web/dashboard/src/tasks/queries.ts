/**
 * What the task pages read and write: the tasks of the bookings (`calendar_event_tasks`, made by the engine from the
 * units' `product_tasks` when a booking is made, migration 0110), and the organization's task templates with their
 * default assignees. Every request names only task tables, the calendar event's unit and the units' names — never a
 * booking or a guest — so the cleaner's page works with the field-staff permissions alone (no `bookings`, `contacts`).
 */
import { database, rowsOf, valuesOf, type Enums, type Selected } from '../api/database';
import { addDays } from '../common/dates';
import { localized, type Formatter } from '../common/format';

export type Schedule = Enums<'product_tasks_schedule'>;
/** The moments a task is due relative to, in the order the forms offer them. */
export const SCHEDULES = valuesOf<'product_tasks_schedule'>()('departure', 'arrival', 'confirmation', 'custom');

/** A task of a booking as the pages show it. */
export interface BookingTask {
  id: string;
  label: string;
  dueAt: string;
  done: boolean;
  assigneeId: string | null;
  unitId: string | null;
  unit: string | null;
}

const TASK_SELECT = 'id,label,due_at,completed_at,assignee_id,calendar_events(product_id,products(name))';
type TaskRow = Selected<'calendar_event_tasks', typeof TASK_SELECT>;

const toTask = (locale: string) => (row: TaskRow): BookingTask => ({
  id: row.id,
  label: row.label,
  dueAt: row.due_at,
  done: row.completed_at !== null,
  assigneeId: row.assignee_id,
  unitId: row.calendar_events?.product_id ?? null,
  unit: row.calendar_events?.products ? localized(row.calendar_events.products.name, locale) : null,
});

/** At most this many tasks a page lists. */
const LIMIT = 500;

/** The tasks due on `day` (a date in the organization's time zone), by due moment. */
export async function loadDayTasks(day: string, format: Formatter): Promise<BookingTask[]> {
  const rows: TaskRow[] = rowsOf(await database.from('calendar_event_tasks').select(TASK_SELECT)
    // A day's margin on both sides covers every time zone; the day itself is picked below in the organization's.
    .gte('due_at', addDays(day, -1)).lt('due_at', addDays(day, 2)).order('due_at').order('id').limit(LIMIT));
  return rows.filter((row) => format.dayOf(row.due_at) === day).map(toTask(format.locale));
}

/**
 * The tasks assigned to `memberId`: every open one, and the ones done that were due from yesterday on (so what was
 * just marked done stays in sight), by due moment.
 */
export async function loadMemberTasks(memberId: string, format: Formatter): Promise<BookingTask[]> {
  const since = addDays(format.today(), -1);
  const rows: TaskRow[] = rowsOf(await database.from('calendar_event_tasks').select(TASK_SELECT)
    .eq('assignee_id', memberId).or(`completed_at.is.null,due_at.gte.${since}`).order('due_at').order('id').limit(LIMIT));
  return rows.map(toTask(format.locale));
}

export async function setTaskDone(taskId: string, done: boolean): Promise<void> {
  rowsOf(await database.from('calendar_event_tasks').update({ completed_at: done ? new Date().toISOString() : null }).eq('id', taskId));
}

export async function assignTask(taskId: string, memberId: string | null): Promise<void> {
  rowsOf(await database.from('calendar_event_tasks').update({ assignee_id: memberId }).eq('id', taskId));
}

export interface UnitName {
  id: string;
  name: string;
}

/** The units (archived ones too: their tasks may still be open), by name. */
export async function loadUnits(locale: string): Promise<UnitName[]> {
  const rows = rowsOf(await database.from('products').select('id,name').order('created_at').limit(1000));
  return rows.map((row) => ({ id: row.id, name: localized(row.name, locale) }));
}

export interface MemberName {
  id: string;
  name: string;
  role: Enums<'members_role'>;
}

/** The active members a task can be assigned to. */
export async function loadMembers(): Promise<MemberName[]> {
  return rowsOf(await database.from('members').select('id,name,role').eq('active', true).order('name'));
}

export interface TaskTemplate {
  id: string;
  label: string;
  schedule: Schedule;
  offsetMinutes: number;
  assigneeIds: string[];
}

export async function loadTemplates(): Promise<TaskTemplate[]> {
  const rows = rowsOf(await database.from('task_templates').select('id,label,schedule,offset_minutes,task_template_assignees(member_id)')
    .order('label').order('id'));
  return rows.map((row) => ({
    id: row.id, label: row.label, schedule: row.schedule, offsetMinutes: row.offset_minutes,
    assigneeIds: row.task_template_assignees.map((assignee) => assignee.member_id),
  }));
}

/** A template, then its default assignees (the engine gives a unit's task the first one when the unit's has none). */
export async function addTemplate(template: Omit<TaskTemplate, 'id'>): Promise<void> {
  const created = rowsOf(await database.from('task_templates')
    .insert({ label: template.label, schedule: template.schedule, offset_minutes: template.offsetMinutes }).select('id').single());
  if (template.assigneeIds.length === 0) return;
  rowsOf(await database.from('task_template_assignees')
    .insert(template.assigneeIds.map((memberId) => ({ task_template_id: created.id, member_id: memberId }))));
}

/** Deletes a template; the units' tasks made from it stay (their link is set to null). */
export async function removeTemplate(templateId: string): Promise<void> {
  rowsOf(await database.from('task_templates').delete().eq('id', templateId));
}
