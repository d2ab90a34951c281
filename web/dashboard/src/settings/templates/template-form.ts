/**
 * An e-mail template as the editor holds it, and back: the row the API stores (`email_templates`), the draft a
 * preview or test-send renders before it is saved (docs/automations.md#preview), and a copy. The subject and body
 * are edited per language in the tabs of `TEMPLATE_LANGUAGES`; languages the editor does not offer are kept as
 * stored. "Active" is `type`: an `automated` template sends on its own, a `manual` one (disabled) never does.
 */
import type { LanguageTexts } from '../../../../../src/common/languages.js';
import { GUEST_LANGUAGES } from '../../../../../src/common/translate.js';
import type { TFunction } from 'i18next';
import type { Enums, Row, Selected, TablesInsert } from '../../api/database';
import type { Moment } from '../../api/json-columns';
import { labelledKeys } from '../../i18n/labelled-keys';
import { templatesMessages } from './messages.js';

export const TEMPLATE_COLUMNS = 'id,subject,body,trigger,moment,time,status,type,past_schedule_behavior,include_booking_details,include_booking_link,include_ical_data,include_product_image,attachments,payment_due_offset';
export type StoredTemplate = Selected<'email_templates', typeof TEMPLATE_COLUMNS>;

/** The tabs of the subject and body: `default` is what every language without its own text reads. */
export const TEMPLATE_LANGUAGES = ['default', ...GUEST_LANGUAGES] as const;
export type TemplateLanguage = (typeof TEMPLATE_LANGUAGES)[number];

export type Trigger = Enums<'email_templates_trigger'>;

/**
 * When a template may be sent (docs/automations.md#triggers): the keys of their names (./messages.ts), which are
 * keyed by the database's own list, so the editor always offers every one.
 */
export const TRIGGERS: readonly Trigger[] = labelledKeys<Trigger>()(templatesMessages.en.trigger);

/** Triggers sent at a time of day in the unit's time zone (`time`, `past_schedule_behavior`). */
export const SCHEDULED_TRIGGERS: readonly Trigger[] = ['moment', 'payment_due'];

/** What `moment.offset` counts from (docs/automations.md#moments). */
export const MOMENTS: readonly Moment['type'][] = labelledKeys<Moment['type']>()(templatesMessages.en.momentType);

export const BOOKING_STATUSES: readonly Enums<'email_templates_status'>[] = labelledKeys<Enums<'email_templates_status'>>()(templatesMessages.en.status);

export const PAST_SCHEDULE_BEHAVIORS: readonly Enums<'email_templates_past_schedule_behavior'>[] = labelledKeys<Enums<'email_templates_past_schedule_behavior'>>()(templatesMessages.en.pastSchedule);

/** The template's flags: its `include_…` columns. */
export type Flag = Extract<keyof Row<'email_templates'>, `include_${string}`>;

export const FLAGS: readonly Flag[] = labelledKeys<Flag>()(templatesMessages.en.flag);

export interface TemplateForm extends Record<Flag, boolean> {
  subject: LanguageTexts;
  body: LanguageTexts;
  trigger: Trigger;
  /** Used when `trigger` is `moment`. */
  moment: Moment;
  /** Used when `trigger` is `payment_due`: days from the payment's due date (docs/automations.md#payment-e-mails). */
  payment_due_offset: number;
  /** `HH:MM`, or '' for the default (docs/automations.md#moments). */
  time: string;
  status: Enums<'email_templates_status'>;
  active: boolean;
  past_schedule_behavior: Enums<'email_templates_past_schedule_behavior'>;
  attachments: StoredTemplate['attachments'];
}

/** A new template: sent when a booking is confirmed, with the columns' defaults. */
export function newTemplateForm(): TemplateForm {
  return {
    subject: { default: '' }, body: { default: '' }, trigger: 'confirmed', moment: { type: 'check-in', offset: -3 }, payment_due_offset: -3, time: '10:00',
    status: 'CONFIRMED', active: true, past_schedule_behavior: 'skip', include_booking_details: true, include_booking_link: true,
    include_ical_data: false, include_product_image: false, attachments: [],
  };
}

export function formOf(row: StoredTemplate): TemplateForm {
  return {
    subject: row.subject, body: row.body,
    trigger: row.trigger ?? (row.moment ? 'moment' : 'manual'),
    moment: row.moment ?? { type: 'check-in', offset: 0 },
    payment_due_offset: row.payment_due_offset ?? 0,
    time: row.time?.slice(0, 5) ?? '',
    status: row.status, active: row.type === 'automated', past_schedule_behavior: row.past_schedule_behavior,
    include_booking_details: row.include_booking_details, include_booking_link: row.include_booking_link,
    include_ical_data: row.include_ical_data, include_product_image: row.include_product_image,
    attachments: row.attachments,
  };
}

/** The texts as stored: the editor's languages left empty are left out (they read `default`), `default` always kept. */
function storedTexts(texts: LanguageTexts): LanguageTexts & { default: string } {
  const written = Object.entries(texts).filter(([key, text]) => key === 'default' || text.trim() !== '');
  return { default: '', ...Object.fromEntries(written) };
}

/** The columns a preview's draft may give (docs/automations.md#preview). */
export type TemplateDraft = Pick<TablesInsert<'email_templates'>, 'subject' | 'body' | 'attachments' | Flag>;

/** The fields a preview renders, as a draft. */
export function draftOf(form: TemplateForm): TemplateDraft {
  return {
    subject: storedTexts(form.subject), body: storedTexts(form.body),
    include_booking_details: form.include_booking_details, include_booking_link: form.include_booking_link,
    include_ical_data: form.include_ical_data, include_product_image: form.include_product_image, attachments: form.attachments,
  };
}

export function rowOf(form: TemplateForm): Omit<TablesInsert<'email_templates'>, 'id'> {
  const scheduled = SCHEDULED_TRIGGERS.includes(form.trigger);
  return {
    ...draftOf(form),
    trigger: form.trigger,
    moment: form.trigger === 'moment' ? form.moment : null,
    payment_due_offset: form.trigger === 'payment_due' ? form.payment_due_offset : null,
    time: scheduled && form.time ? form.time : null,
    status: form.status,
    type: form.active ? 'automated' : 'manual',
    past_schedule_behavior: form.past_schedule_behavior,
  };
}

/** A copy of a template, disabled, so that a guest is not sent both before the copy is changed. */
export function copyOf(row: StoredTemplate): Omit<TablesInsert<'email_templates'>, 'id'> {
  return { ...rowOf(formOf(row)), type: 'manual' };
}

/** How the list names a template: its subject, when it is sent, and whether it is disabled. */
export function templateLabel(row: StoredTemplate, subject: string, t: TFunction<'templates'>): string {
  const form = formOf(row);
  const when = form.trigger === 'moment' ? t('when', { offset: form.moment.offset, counted: t(`momentType.${form.moment.type}`) })
    : form.trigger === 'payment_due' ? t('when', { offset: form.payment_due_offset, counted: t('paymentDue') })
    : t(`trigger.${form.trigger}`);
  return t(form.active ? 'label' : 'labelDisabled', { subject: subject || t('noSubject'), when });
}
