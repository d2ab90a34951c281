/**
 * scripts/folder-cycles.js, run by `npm test`'s static step: it fails on folders of src/ that import each other
 * in a circle — type-only imports included, since they tie the folders' designs together just the same — names the
 * imports that close the circle, and passes a tree whose folders only import downwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

function tree(files: Record<string, string>): string {
  const root = join(mkdtempSync(join(tmpdir(), 'folder-cycles-')), 'src');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root: string) {
  const result = spawnSync(process.execPath, ['scripts/folder-cycles.js', root], { encoding: 'utf8' });
  rmSync(dirname(root), { recursive: true, force: true });
  return result;
}

test('a type-only import back into a folder that imports it is a cycle: exit 1, naming both imports', () => {
  const result = check(tree({
    'http/app.ts': "import { book } from '../booking/routes.js';\nexport const app = book;\n",
    'booking/routes.ts': "import type { App } from '../http/types.js';\nexport const book = (app: App) => app;\n",
    'http/types.ts': 'export type App = unknown;\n',
  }));
  assert.equal(result.status, 1);
  assert.match(result.stdout, /cycle among: src\/booking, src\/http/);
  assert.match(result.stdout, /src\/http\/app\.ts -> src\/booking\/routes\.ts\n/);
  assert.match(result.stdout, /src\/booking\/routes\.ts -> src\/http\/types\.ts \(type only\)/);
});

test('a parent folder and its subfolder importing each other are a cycle', () => {
  const result = check(tree({
    'cli/main.ts': "export { run } from './commands/run.js';\n",
    'cli/usage.ts': 'export const usage = 1;\n',
    'cli/commands/run.ts': "import { usage } from '../usage.js';\nexport const run = usage;\n",
  }));
  assert.equal(result.status, 1);
  assert.match(result.stdout, /cycle among: src\/cli, src\/cli\/commands/);
});

test('folders that only import downwards pass', () => {
  const result = check(tree({
    'http/app.ts': "import { book } from '../booking/routes.js';\nexport const app = book;\n",
    'booking/routes.ts': "import { common } from '../common/patterns.js';\nexport const book = common;\n",
    'common/patterns.ts': 'export const common = 1;\n',
  }));
  assert.equal(result.status, 0, result.stdout);
  assert.match(result.stdout, /no folder-level import cycles/);
});
