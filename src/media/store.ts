/**
 * Where media files live: a folder (`DATA_DIR/media`, the default) or an S3-compatible bucket
 * (`STAYKIT_MEDIA_S3_URL`), so that several API processes share one set of files. A file's key is
 * `<hash>/<width>.<format>`: a content hash makes every URL immutable, so it is served with a year-long cache.
 */
import type { Readable } from 'node:stream';

export interface StoredFile {
  body: Readable;
  size: number;
}

export interface MediaStore {
  /** Writes a file whole (a reader never sees half of one). */
  put(key: string, data: Uint8Array, contentType: string): Promise<void>;
  /** The file, or null when there is none. */
  get(key: string): Promise<StoredFile | null>;
  /** Deletes every file under `<hash>/`; none there is no error. */
  deleteHash(hash: string): Promise<void>;
}

/** A key's parts as they may appear in a URL: a 32-hex hash, a width and a variant format. */
export const MEDIA_KEY = /^([0-9a-f]{32})\/([0-9]{1,5})\.(avif|webp|jpeg)$/;

export const CONTENT_TYPES = { avif: 'image/avif', webp: 'image/webp', jpeg: 'image/jpeg' } as const;

/**
 * The key of an inbound e-mail's attachment (src/inbox/attachment-files.ts): its organization and the SHA-256 of its
 * bytes, beside the pictures' keys and never mistaken for one (the media sweep and backups look at those only).
 */
export const ATTACHMENT_KEY = /^attachments\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{64}$/;

export function attachmentKey(organizationId: string, sha256: string): string {
  const key = `attachments/${organizationId}/${sha256}`;
  if (!ATTACHMENT_KEY.test(key)) throw new Error(`not an attachment key: ${key}`);
  return key;
}

export function mediaKey(hash: string, width: number, format: keyof typeof CONTENT_TYPES): string {
  return `${hash}/${width}.${format}`;
}
