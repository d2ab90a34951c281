/** The media store in a folder of the server's disk (`DATA_DIR/media`): the embedded default. */
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { ATTACHMENT_KEY, MEDIA_KEY, type MediaStore, type StoredFile } from './store.js';

export class FolderStore implements MediaStore {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    // Keys are made by mediaKey or attachmentKey and checked here: no `..`, no absolute paths.
    if (!MEDIA_KEY.test(key) && !ATTACHMENT_KEY.test(key)) throw new Error(`not a media key: ${key}`);
    return join(this.root, key);
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    // Written beside and renamed: a reader (or a crash) never meets a half-written file.
    const partial = `${path}.${randomUUID()}.partial`;
    await writeFile(partial, data);
    await rename(partial, path);
  }

  async get(key: string): Promise<StoredFile | null> {
    const path = this.path(key);
    try {
      const { size } = await stat(path);
      return { body: createReadStream(path), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async deleteHash(hash: string): Promise<void> {
    if (!/^[0-9a-f]{32}$/.test(hash)) throw new Error(`not a media hash: ${hash}`);
    await rm(join(this.root, hash), { recursive: true, force: true });
  }
}
