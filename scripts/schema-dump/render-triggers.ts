/**
 * schema/triggers.md: what a change to each table sets off — for every table and kind of change, its triggers in the
 * order PostgreSQL fires them, each with the function it runs and the migrations that hold them, and the rows of
 * other tables its foreign keys' actions change. Made from the catalog (./catalog.ts); PostgreSQL's firing order is
 * the rule written in the file's introduction below.
 */
import type { Catalog, RelationInfo, TriggerInfo } from './catalog.js';
import type { Sources } from './sources.js';

const EVENTS = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const;
type Event = (typeof EVENTS)[number];

/** When a trigger fires relative to the statement, in firing order; `rank` orders the phases. */
function phase(trigger: TriggerInfo): { rank: number; label: string } {
  if (trigger.timing === 'BEFORE') return trigger.row ? { rank: 2, label: 'before each row' } : { rank: 1, label: 'before the statement' };
  if (trigger.timing === 'INSTEAD OF') return { rank: 3, label: 'instead of each row' };
  if (!trigger.row) return { rank: 5, label: 'after the statement' };
  if (trigger.deferred === true) return { rank: 6, label: 'at commit (constraint trigger, initially deferred)' };
  if (trigger.deferred === false) return { rank: 4, label: 'after each row (constraint trigger, deferrable)' };
  return { rank: 4, label: 'after each row' };
}

/** Byte order, as PostgreSQL compares trigger names (strcmp). */
const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The triggers `event` fires on `relation`, in firing order. */
export function firingOrder(relation: RelationInfo, event: Event): TriggerInfo[] {
  return relation.triggers
    .filter((trigger) => trigger.events.includes(event))
    .sort((a, b) => phase(a).rank - phase(b).rank || byName(a.name, b.name));
}

/** Text in a Markdown table cell: pipes escaped, on one line. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (text: string) => `\`${cell(text)}\``;

function condition(trigger: TriggerInfo, event: Event): string {
  const parts: string[] = [];
  if (event === 'UPDATE' && trigger.updateColumns.length > 0) parts.push(`OF ${trigger.updateColumns.join(', ')}`);
  if (trigger.when !== null) parts.push(`WHEN (${trigger.when})`);
  if (trigger.enabled === 'D') parts.push('DISABLED');
  if (trigger.enabled === 'R') parts.push('ENABLED REPLICA only');
  return parts.length === 0 ? '' : code(parts.join(' '));
}

function functionCell(trigger: TriggerInfo, sources: Sources): string {
  const dot = trigger.function.lastIndexOf('.');
  const source = sources.functionDefinedIn(trigger.function.slice(0, dot), trigger.function.slice(dot + 1), 0);
  return `${code(`${trigger.function}(${trigger.arguments ?? ''})`)}${source === null ? '' : ` (${source})`}`;
}

function eventLines(relation: RelationInfo, event: Event, sources: Sources): string[] {
  const triggers = firingOrder(relation, event);
  const cascades = relation.referencedBy
    .map((ref) => ({ ref, action: event === 'DELETE' ? ref.onDelete : event === 'UPDATE' ? ref.onUpdate : 'NO ACTION' }))
    .filter(({ action }) => ['CASCADE', 'SET NULL', 'SET DEFAULT'].includes(action));
  if (triggers.length === 0 && cascades.length === 0) return [];
  const lines = ['', `**${event}**`];
  if (triggers.length > 0) {
    lines.push('', '| # | Fires | Trigger | Runs (function defined in) | Only when | Trigger created in |', '|---:|---|---|---|---|---|');
    triggers.forEach((trigger, i) => {
      const created = sources.triggerCreatedIn(relation.schema, relation.name, trigger.name) ?? '';
      lines.push(`| ${i + 1} | ${phase(trigger).label} | ${code(trigger.name)} | ${functionCell(trigger, sources)} | ${condition(trigger, event)} | ${created} |`);
    });
  }
  if (cascades.length > 0) {
    const verb = event === 'DELETE' ? 'Deleting' : 'Changing the key of';
    // The foreign keys' actions are internal after-row triggers named RI_ConstraintTrigger_…, in the same name order.
    const later = triggers.filter((t) => phase(t).rank === 4 && byName(t.name, 'RI_ConstraintTrigger') > 0).length;
    const when = later === triggers.filter((t) => phase(t).rank === 4).length ? 'before every after-row trigger above' : 'among the after-row triggers above, by name';
    lines.push('', `${verb} a row also changes, through foreign keys (PostgreSQL's RI_ConstraintTrigger_… triggers, after each row, ${when}):`);
    for (const { ref, action } of cascades) lines.push(`- ${code(ref.table)}: ${action} (${code(ref.name)})`);
  }
  return lines;
}

function counts(relation: RelationInfo): string {
  return EVENTS.map((event) => String(firingOrder(relation, event).length)).join(' | ');
}

export function renderTriggersMarkdown(catalog: Catalog, sources: Sources, preamble: readonly string[]): string {
  const tables = catalog.relations.filter((relation) =>
    relation.triggers.length > 0 || relation.referencedBy.some((ref) => [ref.onDelete, ref.onUpdate].some((a) => ['CASCADE', 'SET NULL', 'SET DEFAULT'].includes(a))));
  const quiet = catalog.relations.filter((relation) => !tables.includes(relation));
  const lines = [...preamble, '', '| Table | INSERT | UPDATE | DELETE | TRUNCATE |', '|---|---:|---:|---:|---:|'];
  for (const relation of tables) {
    lines.push(`| [${relation.qualified}](#${relation.qualified.replace(/[^a-z0-9_-]/g, '')}) | ${counts(relation)} |`);
  }
  for (const relation of tables) {
    lines.push('', `## ${relation.qualified}`);
    for (const event of EVENTS) lines.push(...eventLines(relation, event, sources));
  }
  if (quiet.length > 0) {
    lines.push('', '## Tables a change sets nothing off', '', 'No triggers, and no foreign key that changes other rows:', '',
      quiet.map((relation) => code(relation.qualified)).join(', '));
  }
  return `${lines.join('\n')}\n`;
}
