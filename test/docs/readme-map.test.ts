/**
 * The README's architecture table is the map of the repository, so it must tell the truth: every path it names
 * exists (a file, a folder, a `*` pattern that matches something, a migration number, a heading of a linked page),
 * and every folder of src/ (at any depth), every folder of web/ and every top-level folder has a row of its own.
 * A folder added without a row, or a row left pointing at a moved file, fails here.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { test } from 'node:test';

const README = readFileSync('README.md', 'utf8');
/** Top-level folders a row may start a path with. */
const ROOTS = /^(?:src|web|docs|migrations|schema|scripts|bench|test|bin|stryker-incremental|releases|CHANGELOG\.md)(?:\/|$)/;
/** A file or folder name on its own (`quote.ts`, `mutate-sql/`, `mutation-*.js`): relative to the row's folders. */
const BARE = /^[\w*.-]+(?:\.(?:ts|tsx|js|mjs|md|sql|json)|\/)$/;
/** Made by builds, installs and mutation runs, ignored by git (.gitignore): no row, and a path into them may be absent. */
const GENERATED = new Set(['node_modules', 'dist', 'reports']);

interface Row { line: string; folders: string[]; names: string[] }

/** The architecture table's rows: the paths of the first column, and every backticked name of the row. */
function architectureRows(): Row[] {
  const section = README.split(/^## /m).find((part) => part.startsWith('Architecture\n'));
  assert.ok(section, 'README.md has an "## Architecture" section');
  const table = section.split('\n').filter((line) => line.startsWith('|')).slice(2);
  assert.ok(table.length > 0, 'the Architecture section has a table');
  const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  return table.map((line) => ({ line, folders: ticked(line.split('|')[1] ?? ''), names: ticked(line) }));
}

/** GitHub's anchor of a Markdown heading. */
const slug = (heading: string) => heading.trim().toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');

function anchorExists(file: string, anchor: string): boolean {
  return readFileSync(file, 'utf8').split('\n').some((line) => /^#{1,6} /.test(line) && slug(line.replace(/^#+ /, '')) === anchor);
}

/** Whether `path` (no anchor) names something: a file or folder, a `*` pattern's match, a generated folder's parent. */
function pathExists(path: string): boolean {
  const plain = path.replace(/\/$/, '');
  const parts = plain.split('/');
  const generated = parts.findIndex((part) => GENERATED.has(part));
  if (generated >= 0) return existsSync(parts.slice(0, generated).join('/') || '.');
  if (plain.includes('*')) {
    const pattern = new RegExp(`^${posix.basename(plain).split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const dir = dirname(plain);
    return existsSync(dir) && readdirSync(dir).some((name) => pattern.test(name));
  }
  if (/^migrations\/\d{4}$/.test(plain)) return migrationExists(plain.slice('migrations/'.length));
  return existsSync(plain);
}

function migrationExists(number: string): boolean {
  return readdirSync('migrations').some((name) => name.startsWith(`${number}_`));
}

/** The folders a bare name of `row` may be in: its first column's folders (a file's or pattern's own folder). */
function bases(row: Row): string[] {
  return row.folders.filter((folder) => ROOTS.test(folder)).map((folder) => {
    const plain = folder.replace(/\/$/, '');
    return plain.includes('*') || (existsSync(plain) && !statSync(plain).isDirectory()) ? dirname(plain) : plain;
  });
}

/** What in `row` names something that does not exist. */
function brokenNames(row: Row): string[] {
  const broken: string[] = [];
  for (const name of row.names) {
    const [path = '', anchor] = name.split('#');
    if (ROOTS.test(path)) {
      if (!pathExists(path)) broken.push(name);
      else if (anchor !== undefined && !anchorExists(path, anchor)) broken.push(name);
    } else if (BARE.test(name) && !bases(row).some((base) => pathExists(join(base, name)))) {
      broken.push(name);
    }
  }
  // Migrations named in prose: "migration 0110", "migrations 0120–0123".
  for (const match of row.line.matchAll(/\bmigrations? (\d{4})(?:[–-](\d{4}))?/g)) {
    for (const number of match.slice(1)) if (number !== undefined && !migrationExists(number)) broken.push(`migration ${number}`);
  }
  return broken;
}

function folders(dir: string, recursive: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.') && !GENERATED.has(entry.name) && !entry.name.startsWith('dist.'))
    .flatMap((entry) => {
      const path = dir === '.' ? entry.name : `${dir}/${entry.name}`;
      return recursive ? [path, ...folders(path, true)] : [path];
    });
}

test('every path the README\'s architecture table names exists', () => {
  const broken = architectureRows().flatMap((row) => brokenNames(row).map((name) => `${name} (row ${row.folders.join(', ')})`));
  assert.deepEqual(broken, []);
});

test('every folder of src/ and web/, and every top-level folder, has a row in the README\'s architecture table', () => {
  const rows = new Set(architectureRows().flatMap((row) => row.folders.map((folder) => folder.replace(/\/$/, ''))));
  const expected = [...folders('src', true), ...folders('web', false), ...folders('.', false).filter((name) => name !== 'src' && name !== 'web')];
  assert.deepEqual(expected.filter((folder) => !rows.has(folder)), []);
});

test('the map\'s checks catch a wrong path, a missing pattern match, a missing heading and an unknown migration', () => {
  const row = (line: string): Row => {
    const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
    return { line, folders: ticked(line.split('|')[1] ?? ''), names: ticked(line) };
  };
  assert.deepEqual(brokenNames(row('| `src/auth/session-*` | `password.ts`, `session-store.ts` | `docs/security.md#no-such-heading`, migration 0099, `web/dashboard/dist` |')),
    ['password.ts', 'docs/security.md#no-such-heading', 'migration 0099']);
  assert.deepEqual(brokenNames(row('| `src/nowhere` | `src/auth/nothing-*`, `migrations/0060`, `docs/security.md#no-requests-work-on-the-event-loop` | |')),
    ['src/nowhere', 'src/auth/nothing-*']);
});
