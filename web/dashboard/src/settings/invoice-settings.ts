/**
 * The invoice settings as the Invoice settings page edits them: `settings.invoices` without the seller (the
 * Organization page's) — the number pattern and what a confirmation does, read by the database when it numbers and
 * makes invoices (migration 0121), and the payment term and instructions printed on them (migration 0215).
 */
import type { OrganizationSettings } from './organization-profile';
import { withSetting } from './organization-profile';

export const ON_CONFIRMATION = ['none', 'draft', 'issue'] as const;
export type OnConfirmation = (typeof ON_CONFIRMATION)[number];

export interface InvoiceForm {
  pattern: string;
  onConfirmation: OnConfirmation;
  termsDays: number;
  instructions: string;
}

/** What the database uses when a setting is not stored. */
export const DEFAULT_PATTERN = '{YYYY}-{NNNN}';
export const DEFAULT_TERMS_DAYS = 14;

/** The database's rule for a pattern (staykit_internal.invoice_number_pattern): a counter, at most 64 characters. */
export const patternAccepted = (pattern: string) => /\{N+\}/.test(pattern) && pattern.length <= 64;

export function invoicesOf(settings: OrganizationSettings): Record<string, unknown> {
  const invoices = settings.invoices;
  return typeof invoices === 'object' && invoices !== null ? invoices as Record<string, unknown> : {};
}

export function invoiceForm(settings: OrganizationSettings): InvoiceForm {
  const stored = invoicesOf(settings);
  const mode = stored.on_confirmation;
  return {
    pattern: typeof stored.number_pattern === 'string' ? stored.number_pattern : DEFAULT_PATTERN,
    onConfirmation: mode === 'draft' || mode === 'issue' ? mode : 'none',
    termsDays: typeof stored.payment_terms_days === 'number' ? stored.payment_terms_days : DEFAULT_TERMS_DAYS,
    // Instructions stored per language (a MultiLanguageString) are edited as their default text.
    instructions: typeof stored.payment_instructions === 'string' ? stored.payment_instructions
      : typeof stored.payment_instructions === 'object' && stored.payment_instructions !== null
        ? String((stored.payment_instructions as Record<string, unknown>).default ?? '') : '',
  };
}

/** `settings` with the form's invoice settings; the seller and any other key as they were. */
export function withInvoiceSettings(settings: OrganizationSettings, form: InvoiceForm): OrganizationSettings {
  const stored = invoicesOf(settings);
  // Unchanged instructions keep their stored shape (texts per language stay).
  const instructions = form.instructions.trim() === invoiceForm(settings).instructions.trim() ? stored.payment_instructions ?? null
    : form.instructions.trim() === '' ? null : form.instructions.trim();
  const written: [string, unknown][] = [
    ['number_pattern', form.pattern.trim()],
    ['on_confirmation', form.onConfirmation === 'none' ? null : form.onConfirmation],
    ['payment_terms_days', form.termsDays],
    ['payment_instructions', instructions],
  ];
  const invoices = written.reduce((current, [key, value]) => withSetting(current, key, value), stored);
  return withSetting(settings, 'invoices', invoices);
}

/** A number the pattern gives, as the database would (next_invoice_number): for the example beside the field. */
export function exampleNumber(pattern: string, year: number, counter = 1): string {
  const digits = /\{(N+)\}/.exec(pattern)?.[1]?.length ?? 1;
  return pattern.replaceAll('{YYYY}', String(year).padStart(4, '0')).replaceAll('{YY}', String(year % 100).padStart(2, '0'))
    .replace(/\{N+\}/, String(counter).padStart(digits, '0'));
}
