/** This Staykit's version: the one in its package.json, the nearest one up from this module, in the sources as in dist/. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function readStaykitVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    try {
      const found = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (found.name === 'staykit' && found.version) return found.version;
    } catch {
      // no package.json here: one folder up
    }
    if (dirname(dir) === dir) return 'unknown';
  }
}

export const STAYKIT_VERSION = readStaykitVersion();
