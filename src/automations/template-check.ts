/**
 * The resource API's write hook for `email_templates` and `message_templates` (POST and PATCH): every language of
 * `subject` and `body` must render against a booking with every variable filled in, or the write is refused with
 * 400 SK680 naming the field, the language, and the line and column. A template is therefore never found broken
 * at send time. `attachments` must be a list of `{filename, content (base64), content_type?}` (400 SK681).
 *
 * The work of one save is bounded whatever its body holds: at most `MAX_TEMPLATE_LANGUAGES` languages per text
 * (400 SK686), and every text of every row rendered in one compute-pool task that may take
 * `TEMPLATE_CHECK_BUDGET_MS` in all — in a worker thread, under the organization's budget, never on the event loop.
 */
import type { ComputePool } from '../compute/pool.js';
import { apiError } from '../errors/registry.js';
import type { JsonRow, WriteHook } from '../query/serve.js';
import type { TemplateText } from './render.js';
import { checkTemplateTexts } from './rendering.js';

const TEXT_FIELDS = ['subject', 'body'] as const;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
/** Languages one subject or body may hold (`default` included): the EU's 24 and room to spare. */
export const MAX_TEMPLATE_LANGUAGES = 30;

/** The texts of `row` to check, each with its field and language. */
function textsOf(row: JsonRow): TemplateText[] {
  return TEXT_FIELDS.flatMap((field) => {
    const value = row[field];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return []; // the database's CHECK answers
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > MAX_TEMPLATE_LANGUAGES) {
      throw apiError('SK686', { params: { field, count: String(entries.length), max: String(MAX_TEMPLATE_LANGUAGES) } });
    }
    return entries.flatMap(([language, text]) => (typeof text === 'string' ? [{ field, language, text }] : []));
  });
}

function checkAttachments(row: JsonRow): void {
  if (!('attachments' in row)) return;
  const list = row.attachments;
  const bad = (message: string) => apiError('SK681', { params: { message } });
  if (!Array.isArray(list)) throw bad('attachments must be a list');
  list.forEach((item: unknown, index) => {
    const file = item as Record<string, unknown> | null;
    if (file === null || typeof file !== 'object' || Array.isArray(file)) throw bad(`attachments[${index}] must be an object`);
    if (typeof file.filename !== 'string' || file.filename.trim() === '' || /[\r\n/\\]/.test(file.filename)) {
      throw bad(`attachments[${index}].filename must be a file name`);
    }
    if (typeof file.content !== 'string' || !BASE64.test(file.content)) throw bad(`attachments[${index}].content must be base64`);
    if (file.content_type !== undefined && (typeof file.content_type !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(file.content_type))) {
      throw bad(`attachments[${index}].content_type must be a media type like application/pdf`);
    }
  });
}

/**
 * Throws 400 SK681, SK686 or SK680 for the first of `rows` a save would refuse: the write hook's check, and a
 * preview's of its draft.
 */
export async function checkTemplateRows(pool: ComputePool, organizationId: string, rows: readonly JsonRow[]): Promise<void> {
  rows.forEach(checkAttachments);
  const texts = rows.flatMap(textsOf);
  if (texts.length === 0) return;
  const problem = await checkTemplateTexts(pool, organizationId, texts);
  if (problem) {
    throw apiError('SK680', {
      params: { field: `${problem.field}.${problem.language}`, message: problem.message },
      details: problem.line === undefined ? null : `line ${problem.line}, column ${problem.column}`,
    });
  }
}

export function templateWriteHook(pool: ComputePool): WriteHook {
  return async ({ rows, tenant }) => {
    if (tenant === undefined) throw new Error('template writes need the organization that pays for their check');
    await checkTemplateRows(pool, tenant, rows);
    return undefined;
  };
}
