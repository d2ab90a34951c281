/**
 * docs/schema.md's reference is what API users read about each table, so it must follow the schema: every table of
 * `api` has a section, every column a row and no row a column that is gone, and each row's "Client writes" says
 * what the grants let a client write (insert, update, both, or neither). Read from the committed dump
 * (schema/schema.sql), which test/schema/dump.test.ts keeps equal to what the migrations make: a column added by a
 * migration without its row, or a grant changed without its row, fails here naming the table and column.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const DUMP = readFileSync('schema/schema.sql', 'utf8');
const DOC = readFileSync('docs/schema.md', 'utf8');

/** Each `api` table's columns, in the dump's order. */
function dumpedColumns(): Map<string, string[]> {
  const tables = new Map<string, string[]>();
  for (const match of DUMP.matchAll(/^CREATE TABLE api\.(\w+) \(\n([\s\S]*?)^\)[^\n]*;$/gm)) {
    const columns = match[2]!.split('\n').map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('--') && !line.startsWith('CONSTRAINT '))
      .map((line) => line.split(' ')[0]!.replace(/^"(.*)"$/, '$1'));
    tables.set(match[1]!, columns);
  }
  return tables;
}

/** The columns the API role may insert and update, per table (a grant without a column list covers every column). */
function writableColumns(tables: Map<string, string[]>): Map<string, { insert: Set<string>; update: Set<string> }> {
  const writable = new Map<string, { insert: Set<string>; update: Set<string> }>();
  for (const [table] of tables) writable.set(table, { insert: new Set(), update: new Set() });
  for (const match of DUMP.matchAll(/^GRANT (.*) ON TABLE api\.(\w+) TO staykit_api;$/gm)) {
    const entry = writable.get(match[2]!);
    if (!entry) continue;
    for (const privilege of match[1]!.matchAll(/(INSERT|UPDATE)(?: \(([^)]*)\))?/g)) {
      const columns = privilege[2] === undefined ? tables.get(match[2]!)! : privilege[2].split(', ').map((name) => name.replace(/^"(.*)"$/, '$1'));
      for (const column of columns) entry[privilege[1] === 'INSERT' ? 'insert' : 'update'].add(column);
    }
  }
  return writable;
}

/** The reference's sections: per table, each row's column and its "Client writes" cell. */
function documentedRows(): Map<string, Map<string, string>> {
  const reference = DOC.slice(DOC.indexOf('\n## Reference\n'));
  const sections = new Map<string, Map<string, string>>();
  for (const part of reference.split(/^### /m).slice(1)) {
    const [heading, ...lines] = part.split('\n');
    const rows = new Map<string, string>();
    for (const line of lines) {
      const cells = line.split(' | ');
      const column = /^\| `([^`]+)`$/.exec(cells[0] ?? '');
      if (column && cells.length >= 6) rows.set(column[1]!, cells[4]!.trim());
    }
    sections.set(heading!.trim(), rows);
  }
  return sections;
}

const tables = dumpedColumns();
const writable = writableColumns(tables);
const documented = documentedRows();

test('the dump has the api tables this test reads (the parsing still matches the dump\'s format)', () => {
  assert.ok(tables.size >= 70, `found ${tables.size} tables in schema/schema.sql`);
  assert.ok(tables.get('bookings')?.includes('reference'), 'bookings.reference is among the dumped columns');
  assert.ok(writable.get('products')?.update.has('name'), 'products.name is updatable by the grants read');
});

test('docs/schema.md has a section for every api table and none for a table that is gone', () => {
  assert.deepEqual([...documented.keys()].filter((table) => !tables.has(table)), [], 'sections without a table');
  assert.deepEqual([...tables.keys()].filter((table) => !documented.has(table)), [], 'tables without a section in docs/schema.md#reference');
});

test('each section has a row for every column and none for a column that is gone', () => {
  const problems: string[] = [];
  for (const [table, columns] of tables) {
    const rows = documented.get(table);
    if (!rows) continue;
    for (const column of columns) if (!rows.has(column)) problems.push(`${table}.${column}: no row`);
    for (const column of rows.keys()) if (!columns.includes(column)) problems.push(`${table}.${column}: a row for a column that does not exist`);
  }
  assert.deepEqual(problems, []);
});

test('each row\'s "Client writes" is what the grants allow', () => {
  const problems: string[] = [];
  for (const [table, rows] of documented) {
    const grants = writable.get(table);
    if (!grants) continue;
    for (const [column, cell] of rows) {
      const expected = [grants.insert.has(column) && 'insert', grants.update.has(column) && 'update'].filter(Boolean).join(', ');
      const said = cell === 'read-only' || cell === '—' ? '' : cell;
      if (said !== expected) problems.push(`${table}.${column}: says "${cell}", the grants allow "${expected || 'nothing'}"`);
    }
  }
  assert.deepEqual(problems, []);
});
