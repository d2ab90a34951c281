/** Field references shared by select, filters and order: a name plus an optional JSON path (`a->b->>0`). */
import { Cursor, readFieldName } from './cursor.js';
import type { Field, JsonOperation } from './types.js';

function readJsonOperand(cursor: Cursor): { key: string; isIndex: boolean } {
  const match = /^-?[0-9]+/.exec(cursor.input.slice(cursor.pos));
  if (match) {
    const after = cursor.input.slice(cursor.pos + match[0].length);
    const ends = after === '' || after.startsWith('->') || after.startsWith('::') || /^[.,)]/.test(after);
    if (ends) {
      cursor.pos += match[0].length;
      return { key: match[0], isIndex: true };
    }
  }
  return { key: readFieldName(cursor), isIndex: false };
}

export function readJsonPath(cursor: Cursor): JsonOperation[] {
  const path: JsonOperation[] = [];
  for (;;) {
    let arrow: '->' | '->>';
    if (cursor.eat('->>')) arrow = '->>';
    else if (cursor.eat('->')) arrow = '->';
    else return path;
    const operand = readJsonOperand(cursor);
    path.push({ arrow, key: operand.key, isIndex: operand.isIndex });
  }
}

export function readField(cursor: Cursor): Field {
  const name = readFieldName(cursor);
  const jsonPath = readJsonPath(cursor);
  cursor.skipSpaces();
  return { name, jsonPath };
}

/** `a.b.c->x` (a filter key): the embed path and the field. */
export function parseTreePath(key: string): { path: string[]; field: Field } {
  const cursor = new Cursor(key, 'tree path');
  const names: string[] = [readFieldName(cursor)];
  while (cursor.eat('.')) names.push(readFieldName(cursor));
  const jsonPath = readJsonPath(cursor);
  if (!cursor.done) throw cursor.error('expecting delimiter (.) or end of input');
  const name = names.pop() as string;
  return { path: names, field: { name, jsonPath } };
}
