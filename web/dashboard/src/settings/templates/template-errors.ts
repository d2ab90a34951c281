/**
 * Puts an API refusal of a template (a save, or a preview of the draft) next to what it concerns: a subject or body
 * that does not render names its field and language ("body.nl does not render: …", 400 SK680; "subject has 31
 * languages", SK686); another column is found in the message (common/field-errors.ts); the rest is general.
 */
import { toApiError } from '../../api/errors';
import { fieldErrors } from '../../common/field-errors';

export const CHECKED_COLUMNS = ['attachments', 'moment', 'payment_due_offset', 'time', 'trigger', 'status', 'past_schedule_behavior'] as const;
export type CheckedColumn = (typeof CHECKED_COLUMNS)[number];

export interface TextProblem {
  field: 'subject' | 'body';
  language: string;
  message: string;
}

export interface TemplateErrors {
  text: TextProblem | null;
  fields: Partial<Record<CheckedColumn, string>>;
  general: unknown;
}

export function templateErrors(error: unknown): TemplateErrors {
  if (!error) return { text: null, fields: {}, general: null };
  const { body } = toApiError(error);
  const named = /^(subject|body)(?:\.([\w-]+))? (?:does not render|has \d+ languages)/.exec(body.message);
  if (named) {
    const message = body.details ? `${body.message} (${body.details})` : body.message;
    return { text: { field: named[1] as TextProblem['field'], language: named[2] ?? 'default', message }, fields: {}, general: null };
  }
  const { fields, general } = fieldErrors(error, CHECKED_COLUMNS);
  return { text: null, fields, general };
}
