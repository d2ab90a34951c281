#!/usr/bin/env node
// Builds every web app under web/ (each folder with a vite.config.ts) into its dist/ folder, which `staykit serve`
// serves. Run by `npm ci`/`npm install` through the `prepare` script, so a fresh clone has the apps built and nothing
// is downloaded or compiled at run time. `node scripts/build-web.js dashboard` builds one app.
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const webRoot = join(dirname(fileURLToPath(import.meta.url)), '..', 'web');
const wanted = process.argv.slice(2);
const apps = existsSync(webRoot)
  ? readdirSync(webRoot).filter((name) => existsSync(join(webRoot, name, 'vite.config.ts')))
  : [];
for (const name of apps) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const root = join(webRoot, name);
  console.log(`building web/${name}`);
  await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}
