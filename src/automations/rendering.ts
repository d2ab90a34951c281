/**
 * Template rendering as the rest of the server asks for it: every render runs in the compute pool (src/compute),
 * under the organization's budget there, so a template's work never holds the event loop (docs/security.md).
 */
import { computeTask, taskModule, type ComputePool } from '../compute/pool.js';
import type { ComposedMessage } from './compose.js';
import type { BookingRecord } from './context.js';
import type { TemplateText, TextProblem } from './render.js';
import type { CheckInput, ComposeInput, ComposeResult } from './render-tasks.js';
import type { StoredTemplate } from './template-queries.js';

const TASKS = taskModule(import.meta.url, './render-tasks');
const CHECK = computeTask<CheckInput, TextProblem | null>(TASKS, 'checkTexts');
const COMPOSE = computeTask<ComposeInput, ComposeResult>(TASKS, 'compose');

/** Time a template save's check may take for all its texts together (ms). */
export const TEMPLATE_CHECK_BUDGET_MS = 2_000;

/** The first of `texts` that does not render against the sample booking, or undefined. */
export async function checkTemplateTexts(pool: ComputePool, organizationId: string, texts: TemplateText[]): Promise<TextProblem | undefined> {
  return (await pool.run(organizationId, CHECK, { texts, budgetMs: TEMPLATE_CHECK_BUDGET_MS })) ?? undefined;
}

/** The message `template` makes for `record`, or the reason it does not render. */
export async function composeMessage(
  pool: ComputePool, template: StoredTemplate, record: BookingRecord, publicUrl: string, now: Date,
): Promise<{ message: ComposedMessage } | { problem: string }> {
  return pool.run(record.organization.id, COMPOSE, { template, record, publicUrl, now: now.toISOString() });
}
