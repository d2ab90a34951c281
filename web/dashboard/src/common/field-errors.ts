/**
 * Puts an API refusal next to the field it concerns. The API names the field in its message ("timezone must be an
 * IANA time zone…", "Unknown field: price") or, for a database check, in the constraint's name
 * ("products_currency_check"); the first of `fields` named there gets the message. A refusal that names none stays
 * for the form's general error.
 */
import { toApiError } from '../api/errors';

export interface FieldErrors<Field extends string> {
  /** Messages by the field they name. */
  fields: Partial<Record<Field, string>>;
  /** The error when it names no field (shown above the form), else null. */
  general: unknown;
}

export function fieldErrors<Field extends string>(error: unknown, fields: readonly Field[]): FieldErrors<Field> {
  if (!error) return { fields: {}, general: null };
  const { body } = toApiError(error);
  const text = `${body.message}\n${body.details ?? ''}`;
  // Longest names first, so `exact_address` is not read as `address`.
  const named = [...fields].sort((a, b) => b.length - a.length).find((field) => new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)|_${field}_check`).test(text));
  if (!named) return { fields: {}, general: error };
  return { fields: { [named]: body.message } as Partial<Record<Field, string>>, general: null };
}
