/**
 * The files of an inbound e-mail, kept (docs/automations.md#inbox): in the transaction that stores the message, each
 * file the inbox keeps (attachment-types.ts) is written to the object store — the media store, under
 * `attachments/<organization>/<sha256>` — and then its api.message_attachments row is inserted. Object first: if the
 * transaction then fails, an object without a row is left (harmless; the same file sent again reuses it), while a
 * row is never committed without its object. Files beyond STAYKIT_INBOUND_MAX_BYTES — one file, or the mail's files
 * together — are not kept (the listener already refuses a larger mail; a provider's webhook decodes base64 itself).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/types.js';
import { attachmentKey, type MediaStore } from '../media/store.js';
import { isKept, mediaTypeOf } from './attachment-types.js';
import { storable, type InboundAttachment } from './inbound-mail.js';

export interface AttachmentStorage {
  store: MediaStore;
  /** STAYKIT_INBOUND_MAX_BYTES: the most bytes kept per file and per mail. */
  maxBytes: number;
}

/** Why a file was not kept. */
export type NotKeptReason = 'type_not_served' | 'too_large';

/** What the `received` event says of each file of the mail. */
export type AttachmentRecord = {
  filename: string;
  content_type: string;
  size: number;
  inline: boolean;
} & ({ stored: true; attachment_id: string } | { stored: false; reason: NotKeptReason });

const MAX_FILENAME = 255;

const INSERT = `
  INSERT INTO api.message_attachments (organization_id, message_id, filename, content_type, bytes, sha256, storage_key, inline)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  RETURNING id`;

/** A name the table holds: no NUL, not blank, at most 255 characters (the end, with its extension, kept). */
function fileName(given: string): string {
  const name = storable(given).replace(/[\r\n]/g, ' ').trim() || 'attachment';
  return name.length <= MAX_FILENAME ? name : name.slice(name.length - MAX_FILENAME);
}

export async function keepAttachments(
  tx: Queryable, storage: AttachmentStorage, message: { organizationId: string; messageId: string }, files: readonly InboundAttachment[],
): Promise<AttachmentRecord[]> {
  const records: AttachmentRecord[] = [];
  let kept = 0;
  for (const file of files) {
    const filename = fileName(file.filename);
    const contentType = mediaTypeOf(file.contentType);
    const described = { filename, content_type: contentType, size: file.content.length, inline: file.inline };
    if (!isKept(filename, contentType)) {
      records.push({ ...described, stored: false, reason: 'type_not_served' });
      continue;
    }
    if (kept + file.content.length > storage.maxBytes) {
      records.push({ ...described, stored: false, reason: 'too_large' });
      continue;
    }
    kept += file.content.length;
    const sha256 = createHash('sha256').update(file.content).digest('hex');
    const key = attachmentKey(message.organizationId, sha256);
    await storage.store.put(key, file.content, contentType);
    const { rows } = await tx.query<{ id: string }>(INSERT, [
      message.organizationId, message.messageId, filename, contentType, file.content.length, sha256, key, file.inline,
    ]);
    records.push({ ...described, stored: true, attachment_id: rows[0]!.id });
  }
  return records;
}
