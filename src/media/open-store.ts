/** The media store the configuration names: the S3 bucket of STAYKIT_MEDIA_S3_URL, else the folder DATA_DIR/media. */
import { join } from 'node:path';
import { FolderStore } from './folder-store.js';
import { parseS3Url } from '../config.js';
import { S3Store } from './s3-store.js';
import type { MediaStore } from './store.js';

/** `config`: the server's settings (src/config.ts) — only the two this needs, by shape. */
export function openMediaStore(config: { mediaS3Url: string | undefined; dataDir: string }): MediaStore {
  return config.mediaS3Url ? new S3Store(parseS3Url(config.mediaS3Url)) : new FolderStore(join(config.dataDir, 'media'));
}
