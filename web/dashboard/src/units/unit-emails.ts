/**
 * Which automated e-mails a unit's bookings get, and switching one on or off for the unit, in the engine's own terms
 * (docs/automations.md#which-templates-act, staykit_internal.automation_rules of migration 0110): an automated
 * e-mail template with a trigger or a moment acts for every unit — unless an active e-mail message template uses it,
 * and then only for the units that message template is linked to (product_message_templates). Switching a template
 * off for one unit of "every unit" therefore makes such a message template, linked to every other current unit.
 */
import { database, rowsOf, type Selected } from '../api/database';

export const EMAILS_SELECT = 'id,subject,type,trigger,moment,payment_due_offset,status' as const;
export type EmailTemplate = Selected<'email_templates', typeof EMAILS_SELECT>;
export const LINKS_SELECT = 'id,email_template_id,product_message_templates(product_id)' as const;
export type TemplateLink = Selected<'message_templates', typeof LINKS_SELECT>;

/** An automated template that sends on its own: a trigger other than manual (a moment trigger with its moment), or a moment. */
export function sendsOnItsOwn(template: EmailTemplate): boolean {
  if (template.type !== 'automated') return false;
  if (template.trigger === null) return template.moment !== null;
  return template.trigger !== 'manual' && (template.trigger !== 'moment' || template.moment !== null);
}

/** The active e-mail message templates through which `template` acts (none: it acts for every unit). */
export const linksOf = (template: EmailTemplate, links: TemplateLink[]) => links.filter((link) => link.email_template_id === template.id);

export function sentForUnit(template: EmailTemplate, links: TemplateLink[], unitId: string): boolean {
  const through = linksOf(template, links);
  return through.length === 0 || through.some((link) => link.product_message_templates.some((row) => row.product_id === unitId));
}

export async function loadLinks(): Promise<TemplateLink[]> {
  return rowsOf(await database.from('message_templates').select(LINKS_SELECT).eq('active', true).eq('channel', 'email').not('email_template_id', 'is', null));
}

/** `name`: the name of a message template made to switch `template` off for this unit only ("… (chosen units)"). */
export async function switchForUnit(template: EmailTemplate, links: TemplateLink[], unitId: string, on: boolean, name: string): Promise<void> {
  const through = linksOf(template, links);
  if (on) {
    const [link] = through;
    if (link) rowsOf(await database.from('product_message_templates').insert({ message_template_id: link.id, product_id: unitId }));
    return;
  }
  if (through.length > 0) {
    rowsOf(await database.from('product_message_templates').delete().eq('product_id', unitId).in('message_template_id', through.map((link) => link.id)));
    return;
  }
  const others = rowsOf(await database.from('products').select('id').is('deleted_at', null).neq('id', unitId));
  const created = rowsOf(await database.from('message_templates').insert({
    name, channel: 'email', email_template_id: template.id,
  }).select('id').single());
  if (others.length > 0) {
    rowsOf(await database.from('product_message_templates').insert(others.map((unit) => ({ message_template_id: created.id, product_id: unit.id }))));
  }
}
