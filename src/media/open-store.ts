/** The media store the configuration names: the S3 bucket of STAYKIT_MEDIA_S3_URL, else the folder DATA_DIR/media. */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { FolderStore } from './folder-store.js';
import { parseS3Url } from './s3-location.js';
import { S3Store } from './s3-store.js';
import type { MediaStore } from './store.js';

export function openMediaStore(config: Pick<Config, 'mediaS3Url' | 'dataDir'>): MediaStore {
  return config.mediaS3Url ? new S3Store(parseS3Url(config.mediaS3Url)) : new FolderStore(join(config.dataDir, 'media'));
}
