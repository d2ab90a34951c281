/**
 * The resource API's write hook for `email_templates` and `message_templates` (POST and PATCH): every language of
 * `subject` and `body` must render against a booking with every variable filled in, or the write is refused with
 * 400 SK680 naming the field, the language, and the line and column. A template is therefore never found broken
 * at send time. `attachments` must be a list of `{filename, content (base64), content_type?}` (400 SK681).
 */
import { apiError } from '../errors/registry.js';
import type { JsonRow, WriteHook } from '../query/index.js';
import { checkTemplateText } from './render.js';

const TEXT_FIELDS = ['subject', 'body'] as const;
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

async function checkTexts(row: JsonRow): Promise<void> {
  for (const field of TEXT_FIELDS) {
    const value = row[field];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue; // the database's CHECK answers
    for (const [language, text] of Object.entries(value as Record<string, unknown>)) {
      if (typeof text !== 'string') continue;
      const problem = await checkTemplateText(text);
      if (!problem) continue;
      throw apiError('SK680', {
        params: { field: `${field}.${language}`, message: problem.message },
        details: problem.line === undefined ? null : `line ${problem.line}, column ${problem.column}`,
      });
    }
  }
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

export function templateWriteHook(): WriteHook {
  return async ({ rows }) => {
    for (const row of rows) {
      await checkTexts(row);
      checkAttachments(row);
    }
    return undefined;
  };
}
