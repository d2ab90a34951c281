/**
 * `POST /v1/media` (docs/media.md): an image upload, as the request body or a form's file, checked and resized in
 * the compute pool, then recorded (`add_media`, which holds the organization's limit) and its files written in one
 * transaction — the media sweep takes the same per-organization lock, so it never deletes the files of a picture
 * being uploaded again. Answers 201 with the media row. Reading and deleting media is the resource API's
 * (`/v1/media`), like every table.
 */
import type { FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { Authorize } from '../auth/authorize.js';
import type { ComputePool } from '../compute/pool.js';
import type { Database } from '../db/types.js';
import { fromDatabaseError } from '../errors/database-error.js';
import { routeOptions } from '../routing/route-schema.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { mediaUploadRoute } from './bodies.js';
import { imageTooLarge } from './errors.js';
import { processUpload } from './processing.js';
import { recordMedia } from './queries.js';
import type { MediaStore } from './store.js';
import { CONTENT_TYPES, mediaKey } from './store.js';
import { readUpload } from './upload-body.js';

export interface MediaRouteOptions {
  db: Database;
  authorize: Authorize;
  compute: ComputePool;
  store: MediaStore;
  maxBytes: number;
  maxPixels: number;
  perOrganization: number;
  /** Longest resizing of one upload, in ms (STAYKIT_MEDIA_TIMEOUT). */
  timeLimitMs: number;
}

export const mediaRoutes: FastifyPluginAsync<MediaRouteOptions> = async (app, options) => {
  const { db, authorize, compute, store, maxBytes } = options;
  // The bytes are read as they are: the format is decided by them, not by the Content-Type.
  for (const type of ['application/octet-stream', /^image\//]) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
  }
  await app.register(multipart, { limits: { fileSize: maxBytes } });
  // An upload over the limit is the media limit's error (said before a byte is read), not the generic body limit's; a
  // form's file is measured as it streams (upload-body.ts).
  app.addHook('onRequest', async (request) => {
    if (!request.isMultipart() && Number(request.headers['content-length'] ?? 0) > maxBytes) throw imageTooLarge(maxBytes);
  });

  app.route({ ...routeOptions(mediaUploadRoute, authorize, async (request, reply, principal) => {
    const upload = await readUpload(request, maxBytes);
    const image = await processUpload(compute, { organizationId: principal.organizationId, bytes: upload.bytes, maxPixels: options.maxPixels }, options.timeLimitMs);
    const row = await inTenantTransaction(db, principal, async (tx) => {
      let added: Record<string, unknown>;
      try {
        added = await recordMedia(tx, image, upload, options.perOrganization);
      } catch (error) {
        throw fromDatabaseError(error);
      }
      for (const variant of image.variants) {
        await store.put(mediaKey(image.hash, variant.width, variant.format), variant.data, CONTENT_TYPES[variant.format]);
      }
      return { result: added, rollback: false };
    });
    return reply.status(201).type('application/json; charset=utf-8').send(JSON.stringify(row));
  }), bodyLimit: maxBytes });
};
