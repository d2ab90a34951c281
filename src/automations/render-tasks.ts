/**
 * The automations' tasks that compute threads run (src/compute/pool.ts): checking a template's texts when it is
 * saved, and composing a message from a template and a booking. Inputs and answers are plain data (structured
 * clones); a template that does not render is an answer, not a thrown error, so the caller can tell it from a pool
 * failure. The main thread reaches them through rendering.ts, never by importing this module.
 */
import { composeMessage, type ComposedMessage } from './compose.js';
import type { BookingRecord } from './context.js';
import { checkTemplateTexts, type TemplateText, type TextProblem } from './render.js';
import type { StoredTemplate } from './template-queries.js';

export interface CheckInput {
  texts: TemplateText[];
  budgetMs: number;
}

export function checkTexts({ texts, budgetMs }: CheckInput): TextProblem | null {
  return checkTemplateTexts(texts, budgetMs) ?? null;
}

export interface ComposeInput {
  template: StoredTemplate;
  record: BookingRecord;
  publicUrl: string;
  /** ISO time: the `.ics`'s DTSTAMP. */
  now: string;
}

export type ComposeResult = { message: ComposedMessage } | { problem: string };

export async function compose({ template, record, publicUrl, now }: ComposeInput): Promise<ComposeResult> {
  try {
    return { message: await composeMessage(template, record, publicUrl, new Date(now)) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}
