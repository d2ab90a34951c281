/**
 * GET /v1/message-attachments/{id} (attachment-route.ts): streams a kept file of a guest's e-mail from the object
 * store to a key or dashboard session with `messages:read`. The row is read in the organization's transaction (row-
 * level security: another organization's id is a 404); reading it is part of reading the messages, so the
 * transaction may read message_attachments whatever the key's other scopes. What a guest sent is never rendered by
 * the browser as a page of Staykit's origin: always a download, a safe media type or octet-stream, nosniff, sandboxed.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import type { MediaStore } from '../media/store.js';
import { registerRoute } from '../routing/route-schema.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { attachmentDownloadRoute } from './attachment-route.js';
import { servedType } from './attachment-types.js';

export interface AttachmentRouteOptions {
  db: Database;
  authorize: Authorize;
  store: MediaStore;
}

interface AttachmentRow {
  filename: string;
  content_type: string;
  storage_key: string;
}

const ATTACHMENT = 'SELECT filename, content_type, storage_key FROM api.message_attachments WHERE id = $1';

/** `attachment` with an ASCII name for old clients and the exact name in UTF-8 (RFC 6266, RFC 8187). */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._ -]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const attachmentRoutes: FastifyPluginAsync<AttachmentRouteOptions> = async (app, { db, authorize, store }) => {
  refuseOtherMethods(app, '/message-attachments/:id', ['GET']);
  registerRoute(app, attachmentDownloadRoute, authorize, async (request, reply, principal) => {
    const { id } = request.params;
    const row = await inTenantTransaction(db, principal, async (tx) => ({
      result: (await tx.query<AttachmentRow>(ATTACHMENT, [id])).rows[0], rollback: true,
    }), { readable: ['message_attachments'] });
    if (!row) throw notFound(`No message attachment ${id}`);
    const file = await store.get(row.storage_key);
    if (!file) {
      // The row without its object: the store lost it (restored without its media, or cleaned by hand). Logged for the
      // operator; the member is told the file is gone rather than shown a server error.
      request.log.error({ attachment_id: id, storage_key: row.storage_key }, 'a message attachment\'s file is missing from the media store');
      throw notFound(`The file of message attachment ${id} is no longer in the media store`);
    }
    return reply
      .type(servedType(row.content_type))
      .header('content-length', String(file.size))
      .header('content-disposition', attachmentDisposition(row.filename))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .header('cache-control', 'private, no-store')
      .send(file.body);
  });
};
