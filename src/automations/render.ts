/**
 * Rendering with liquidjs. Strict: an unknown variable or filter is an error, and templates are checked against a
 * booking with every field filled in when they are saved (`checkTemplateText`), so a template that was accepted
 * renders at send time. Output is plain text: no HTML escaping. Bounded in time and memory, so a tenant's template
 * cannot hold up the worker. liquidjs is imported with the first template checked or rendered, not when the server
 * starts (~15 MiB and 0.07 s of CPU to import into a bare Node process).
 */
import type { Liquid } from 'liquidjs';
import type { BookingRecord, MultiLanguageString } from './context.js';
import { guestLanguage, localized, SAMPLE_RECORD, templateVariables, type TemplateVariables } from './variables.js';

let engine: Promise<Liquid> | undefined;

function templateEngine(): Promise<Liquid> {
  engine ??= import('liquidjs').then(({ Liquid }) => new Liquid({
    strictVariables: true,
    strictFilters: true,
    ownPropertyOnly: true,
    cache: 256,
    parseLimit: 100_000,
    renderLimit: 1_000,
    memoryLimit: 10_000_000,
  }));
  return engine;
}

/** Where a template text failed: liquidjs's message and, when it has one, the 1-based line and column. */
export interface TemplateProblem {
  message: string;
  line: number | undefined;
  column: number | undefined;
}

function problemOf(error: unknown): TemplateProblem {
  const message = error instanceof Error ? error.message : String(error);
  const position = /line:(\d+), col:(\d+)/.exec(message);
  return {
    message: message.replace(/,? line:\d+, col:\d+.*$/s, ''),
    line: position ? Number(position[1]) : undefined,
    column: position ? Number(position[2]) : undefined,
  };
}

export async function renderText(text: string, variables: TemplateVariables): Promise<string> {
  return (await templateEngine()).parseAndRenderSync(text, variables) as string;
}

/** Undefined when `text` parses and renders against the sample booking; else where it failed. */
export async function checkTemplateText(text: string): Promise<TemplateProblem | undefined> {
  const ready = await templateEngine(); // outside the try: failing to load liquidjs is not the template's problem
  try {
    ready.parseAndRenderSync(text, templateVariables(SAMPLE_RECORD, 'https://example.com'));
    return undefined;
  } catch (error) {
    return problemOf(error);
  }
}

export interface TemplateContent {
  subject: MultiLanguageString;
  body: MultiLanguageString;
  include_booking_details: boolean;
  include_booking_link: boolean;
}

export interface RenderedMessage {
  language: string;
  subject: string;
  body: string;
}

/** The block `include_booking_details` appends: the stay, the unit, the total and every line. */
function bookingDetails(variables: TemplateVariables): string {
  const lines = [
    `Booking ${variables.booking.reference} — ${variables.product.name}`,
    `Arrival: ${variables.stay.arrival}`,
    `Departure: ${variables.stay.departure}`,
    ...variables.line_items.map((item) => `  ${item.name} × ${item.quantity}: ${item.amount}`),
    `Total: ${variables.booking.total}`,
  ];
  if (variables.booking.deposit_minor !== 0) lines.push(`Deposit: ${variables.booking.deposit}`);
  return lines.join('\n');
}

/** Subject and body for `record`, in the guest's language, with the blocks the template asks for. */
export async function renderMessage(template: TemplateContent, record: BookingRecord, publicUrl: string): Promise<RenderedMessage> {
  const language = guestLanguage(record);
  const variables = templateVariables(record, publicUrl);
  const subject = (await renderText(localized(template.subject, language), variables)).replace(/\s*\n\s*/g, ' ').trim();
  const parts = [(await renderText(localized(template.body, language), variables)).trimEnd()];
  if (template.include_booking_details) parts.push(bookingDetails(variables));
  if (template.include_booking_link) parts.push(`Your booking: ${variables.booking.status_url}`);
  return { language, subject, body: `${parts.filter((part) => part !== '').join('\n\n')}\n` };
}
