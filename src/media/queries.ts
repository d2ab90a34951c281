/** The SQL of media: recording an upload (staykit_internal.add_media, migration 0231) and the sweep's work list. */
import type { Queryable } from '../db/types.js';
import type { ProcessedImage } from './processing.js';
import { CONTENT_TYPES, mediaKey } from './store.js';
import type { Upload } from './upload-body.js';

/** The path a variant is served at, below the server's public URL (src/media/serve-routes.ts). */
export function variantPath(hash: string, width: number, format: keyof typeof CONTENT_TYPES): string {
  return `/media/${mediaKey(hash, width, format)}`;
}

export async function recordMedia(tx: Queryable, image: ProcessedImage, upload: Upload, perOrganization: number): Promise<Record<string, unknown>> {
  const variants = image.variants.map(({ width, height, format, data }) => ({
    width, height, format, bytes: data.byteLength, url: variantPath(image.hash, width, format),
  }));
  const body = {
    hash: image.hash, content_type: image.contentType, filename: upload.filename, bytes: upload.bytes.length,
    width: image.width, height: image.height, url: variantPath(image.hash, image.width, 'jpeg'), variants,
    dominant_color: image.dominantColor,
  };
  const { rows } = await tx.query<{ media: Record<string, unknown> }>(
    'SELECT staykit_internal.add_media($1::jsonb, $2) AS media', [JSON.stringify(body), perOrganization]);
  return rows[0]!.media;
}
