/**
 * The media files in a backup: every file of the folder store (DATA_DIR/media) under `media/<key>` — the pictures'
 * variants and the guests' e-mail attachments (`attachments/<organization>/<sha256>`) — restored into the
 * configured store (the folder, or an S3 bucket when STAYKIT_MEDIA_S3_URL is set — the way to move them there). A
 * bucket's files are not copied into a backup: the bucket is backed up beside it (docs/operations.md#media).
 * Files are immutable once written (a content hash names them), so a file read while the server runs is whole.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ATTACHMENT_KEY, CONTENT_TYPES, MEDIA_KEY, type MediaStore } from '../media/store.js';
import { readEntry, type TarEntry, type TarWriter } from './tar.js';

export const MEDIA_PREFIX = 'media/';

/** Adds every stored file of the media folder `folder` (none when it does not exist) to the archive. */
export async function addMediaFiles(tar: TarWriter, folder: string): Promise<number> {
  const hashes = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  let count = 0;
  for (const top of hashes.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort()) {
    // Two levels: <hash>/<variant> for pictures, attachments/<organization>/<sha256> for attachments.
    const folders = top === 'attachments'
      ? (await readdir(join(folder, top), { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => `${top}/${entry.name}`).sort()
      : [top];
    for (const parent of folders) {
      for (const name of (await readdir(join(folder, parent))).sort()) {
        const key = `${parent}/${name}`;
        if (!MEDIA_KEY.test(key) && !ATTACHMENT_KEY.test(key)) continue; // a `.partial` file being written
        const path = join(folder, key);
        await tar.file(`${MEDIA_PREFIX}${key}`, path, (await stat(path)).size);
        count += 1;
      }
    }
  }
  return count;
}

/** Writes the archive's media files into `store`; returns how many. */
export async function restoreMediaFiles(archive: string, entries: TarEntry[], store: MediaStore): Promise<number> {
  let count = 0;
  for (const entry of entries) {
    if (entry.type !== 'file' || !entry.name.startsWith(MEDIA_PREFIX)) continue;
    const key = entry.name.slice(MEDIA_PREFIX.length);
    const match = MEDIA_KEY.exec(key);
    if (!match && !ATTACHMENT_KEY.test(key)) throw new Error(`the backup holds a media file with a name no media file has: ${entry.name}`);
    // An attachment's type is its row's (the download sets it); the object itself is plain bytes.
    const contentType = match ? CONTENT_TYPES[match[3] as keyof typeof CONTENT_TYPES] : 'application/octet-stream';
    await store.put(key, await readEntry(archive, entry), contentType);
    count += 1;
  }
  return count;
}
