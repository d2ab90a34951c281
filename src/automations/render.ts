/**
 * Rendering with liquidjs — in a compute thread only (src/automations/render-tasks.ts, run through src/compute), never
 * on the event loop: a template is a tenant's program, and its time is bounded but not small.
 *
 * Strict: an unknown variable or filter is an error, and templates are checked against a booking with every field
 * filled in when they are saved (`checkTemplateTexts`), so a template that was accepted renders at send time. Output is
 * plain text: no HTML escaping. Bounded in time and memory per render, and a save's check in total time.
 *
 * Templates reach no file: the engine's only "file system" is an empty in-memory one, and the tags that read other
 * templates (`include`, `render`, `layout`) are refused where they are parsed, with a message saying so — so a
 * template is refused when it is saved, never found broken at send time.
 */
import { Liquid } from 'liquidjs';
import type { Translate } from '../common/translate.js';
import type { BookingRecord, MultiLanguageString } from './context.js';
import { messageLabels, type MessageLabels } from './labels.js';
import { guestLanguage, localized, SAMPLE_RECORD, templateVariables, type TemplateVariables } from './variables.js';

/** Time one render may take (ms); a save's check of every language shares `CHECK_BUDGET_MS`. */
const RENDER_LIMIT_MS = 1_000;

const FILE_TAGS = ['include', 'render', 'layout'] as const;

function refusedTag(name: string): Parameters<Liquid['registerTag']>[1] {
  return {
    parse() {
      throw new Error(`{% ${name} %} is not available: a template cannot read other templates or files`);
    },
    render() {
      return '';
    },
  };
}

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  ownPropertyOnly: true,
  cache: 256,
  parseLimit: 100_000,
  renderLimit: RENDER_LIMIT_MS,
  memoryLimit: 10_000_000,
  // An empty in-memory file system: nothing under the server's working directory (or anywhere) can be looked up.
  templates: {},
});
for (const name of FILE_TAGS) engine.registerTag(name, refusedTag(name));

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

function renderText(text: string, variables: TemplateVariables, renderLimit = RENDER_LIMIT_MS): string {
  return engine.parseAndRenderSync(text, variables, { renderLimit }) as string;
}

/** One text of a template being saved: which field and language it is. */
export interface TemplateText {
  field: string;
  language: string;
  text: string;
}

export interface TextProblem extends TemplateProblem {
  field: string;
  language: string;
}

/**
 * The first text that does not parse and render against the sample booking, or undefined. All of them together may
 * take `budgetMs`: each render gets what the ones before left, so a save costs at most that, whatever it holds.
 */
export function checkTemplateTexts(texts: readonly TemplateText[], budgetMs: number): TextProblem | undefined {
  const variables = templateVariables(SAMPLE_RECORD, 'https://example.com');
  const deadline = performance.now() + budgetMs;
  for (const { field, language, text } of texts) {
    const left = Math.floor(deadline - performance.now());
    if (left <= 0) return { field, language, message: `rendering every language took longer than ${budgetMs / 1000} s`, line: undefined, column: undefined };
    try {
      renderText(text, variables, Math.min(RENDER_LIMIT_MS, left));
    } catch (error) {
      return { field, language, ...problemOf(error) };
    }
  }
  return undefined;
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
  /** The plain-text e-mail: the template's text, then the blocks its flags add. */
  body: string;
  /** The same parts apart, for the HTML alternative (html-email.ts). */
  parts: { text: string; details: string[] | null; link: { label: string; url: string } | null };
}

/** The block `include_booking_details` appends, in the message's language: the stay, the unit, the total and every line. */
function bookingDetails(variables: TemplateVariables, t: Translate<MessageLabels>): string[] {
  const daily = variables.stay.rent_period === 'daily';
  const lines = [
    t('booking', { reference: variables.booking.reference, unit: variables.product.name }),
    t(daily ? 'firstDay' : 'arrival', { date: variables.stay.arrival }),
    t(daily ? 'lastDay' : 'departure', { date: variables.stay.departure }),
    ...variables.line_items.map((item) => `  ${item.name} × ${item.quantity}: ${item.amount}`),
    t('total', { amount: variables.booking.total }),
  ];
  if (variables.booking.deposit_minor !== 0) lines.push(t('deposit', { amount: variables.booking.deposit }));
  return lines;
}

/** Subject and body for `record`, in the guest's language, with the blocks the template asks for. Throws liquidjs's error. */
export function renderMessage(template: TemplateContent, record: BookingRecord, publicUrl: string): RenderedMessage {
  const language = guestLanguage(record);
  const variables = templateVariables(record, publicUrl);
  const subject = renderText(localized(template.subject, language), variables).replace(/\s*\n\s*/g, ' ').trim();
  const text = renderText(localized(template.body, language), variables).trimEnd();
  const t = messageLabels(language);
  const details = template.include_booking_details ? bookingDetails(variables, t) : null;
  const url = variables.booking.status_url;
  const blocks = [text, details?.join('\n') ?? '', template.include_booking_link ? t('yourBooking', { url }) : ''];
  return {
    language, subject, body: `${blocks.filter((part) => part !== '').join('\n\n')}\n`,
    parts: { text, details, link: template.include_booking_link ? { label: t('viewBooking'), url } : null },
  };
}
