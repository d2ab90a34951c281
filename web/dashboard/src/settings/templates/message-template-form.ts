/**
 * A unit message (`message_templates`, channel e-mail, with its units in `product_message_templates`) as its editor
 * holds it, and back (docs/automations.md#which-templates-act): it acts for its units only; its own subject and body
 * unless blank, else its e-mail template's; its own moment when it has one, else its e-mail template's trigger or
 * moment; status, time and flags are its e-mail template's. Saving writes the row, then the units' links that
 * changed.
 */
import type { LanguageTexts } from '../../../../../src/common/languages.js';
import { database, rowsOf, type Selected, type TablesInsert } from '../../api/database';
import type { Moment } from '../../api/json-columns';

export const MESSAGE_COLUMNS = 'id,name,email_template_id,subject,body,moment,active,product_message_templates(product_id)';
export type StoredMessage = Selected<'message_templates', typeof MESSAGE_COLUMNS>;

export interface MessageForm {
  name: string;
  /** The e-mail template it is based on, or null (then it needs its own texts and moment). */
  emailTemplateId: string | null;
  subject: LanguageTexts;
  body: LanguageTexts;
  /** Its own moment, or null: its e-mail template's trigger or moment. */
  moment: Moment | null;
  active: boolean;
  unitIds: string[];
}

export function newMessageForm(): MessageForm {
  return { name: '', emailTemplateId: null, subject: { default: '' }, body: { default: '' }, moment: null, active: true, unitIds: [] };
}

export function messageFormOf(row: StoredMessage): MessageForm {
  return {
    name: row.name, emailTemplateId: row.email_template_id, subject: row.subject, body: row.body, moment: row.moment, active: row.active,
    unitIds: row.product_message_templates.map((link) => link.product_id),
  };
}

/** The texts as stored: languages left empty are left out, `default` always kept ('' = the e-mail template's). */
function storedTexts(texts: LanguageTexts): LanguageTexts & { default: string } {
  return { default: '', ...Object.fromEntries(Object.entries(texts).filter(([key, text]) => key === 'default' || text.trim() !== '')) };
}

export function messageRowOf(form: MessageForm): Omit<TablesInsert<'message_templates'>, 'id'> {
  return {
    name: form.name.trim(), channel: 'email', email_template_id: form.emailTemplateId,
    subject: storedTexts(form.subject), body: storedTexts(form.body), moment: form.moment, active: form.active,
  };
}

/** The links to add and remove to go from `stored` units to `wanted` ones. */
export function linkChanges(stored: readonly string[], wanted: readonly string[]): { add: string[]; remove: string[] } {
  return { add: wanted.filter((id) => !stored.includes(id)), remove: stored.filter((id) => !wanted.includes(id)) };
}

/** Saves the message and its units' links; answers its id. */
export async function saveMessage(form: MessageForm, stored: StoredMessage | null): Promise<string> {
  const row = messageRowOf(form);
  const id = rowsOf(stored
    ? await database.from('message_templates').update(row).eq('id', stored.id).select('id').single()
    : await database.from('message_templates').insert(row).select('id').single()).id;
  const { add, remove } = linkChanges(stored ? messageFormOf(stored).unitIds : [], form.unitIds);
  if (remove.length > 0) rowsOf(await database.from('product_message_templates').delete().eq('message_template_id', id).in('product_id', remove));
  if (add.length > 0) rowsOf(await database.from('product_message_templates').insert(add.map((productId) => ({ message_template_id: id, product_id: productId }))));
  return id;
}
