#!/usr/bin/env node
// The `staykit` command. It runs the JavaScript that scripts/build-server.js compiled into dist/ (`npm ci` builds it,
// and `npm run build`), so a start compiles nothing. When dist/ is missing or any compiled source has changed since
// the build (dist/build.json records each one's size and modification time), it runs the TypeScript sources through
// tsx instead — the same code, slower to start — and says so in one line when a person is watching (a terminal).
// `staykit bench` always runs from the sources: the benchmark is development tooling, like `npm run bench`.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** Whether dist/ was built from the sources as they are now. */
function buildIsCurrent() {
  let sources;
  try {
    ({ sources } = JSON.parse(readFileSync(new URL('dist/build.json', root), 'utf8')));
  } catch {
    return false;
  }
  return sources.every(({ path, size, mtimeMs }) => {
    const now = statSync(new URL(path, root), { throwIfNoEntry: false });
    return now !== undefined && now.size === size && now.mtimeMs === mtimeMs;
  });
}

if (process.argv[2] !== 'bench' && buildIsCurrent()) {
  await import(new URL('dist/src/cli/main.js', root).href);
} else {
  if (process.argv[2] !== 'bench' && process.stderr.isTTY) {
    console.error('staykit: dist/ is missing or older than the sources; running them through tsx (`npm run build` compiles them)');
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
