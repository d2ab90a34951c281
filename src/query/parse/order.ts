/** The `order` parameter: `col.desc.nullslast,json->key.asc,rel(col).desc`. */
import { Cursor, readFieldName } from './cursor.js';
import { readField } from './field.js';
import type { OrderTerm } from './types.js';

function readTerm(cursor: Cursor): OrderTerm {
  cursor.skipSpaces();
  const save = cursor.pos;
  let relation: string | undefined;
  let field;
  const name = readFieldName(cursor);
  if (cursor.eat('(')) {
    relation = name;
    field = readField(cursor);
    if (!cursor.eat(')')) throw cursor.error('expecting ")"');
  } else {
    cursor.pos = save;
    field = readField(cursor);
  }
  let direction: 'asc' | 'desc' | undefined;
  let nulls: 'first' | 'last' | undefined;
  if (cursor.peek() === '.') {
    const at = cursor.pos + 1;
    if (cursor.eat('.asc')) direction = 'asc';
    else if (cursor.eat('.desc')) direction = 'desc';
    else if (cursor.eat('.nullsfirst')) nulls = 'first';
    else if (cursor.eat('.nullslast')) nulls = 'last';
    else throw cursor.error('expecting "asc", "desc", "nullsfirst" or "nullslast"', at);
    if (direction !== undefined && cursor.peek() === '.') {
      const at2 = cursor.pos + 1;
      if (cursor.eat('.nullsfirst')) nulls = 'first';
      else if (cursor.eat('.nullslast')) nulls = 'last';
      else throw cursor.error('expecting "nullsfirst" or "nullslast"', at2);
    }
  }
  cursor.skipSpaces();
  if (!cursor.done && cursor.peek() !== ',') throw cursor.error('expecting "," or end of input');
  return { relation, field, direction, nulls };
}

export function parseOrder(value: string): OrderTerm[] {
  const cursor = new Cursor(value, 'order');
  const terms = [readTerm(cursor)];
  while (cursor.eat(',')) terms.push(readTerm(cursor));
  if (!cursor.done) throw cursor.error('expecting "," or end of input');
  return terms;
}

/** `columns=` and `on_conflict=`: a comma-separated list of names. */
export function parseColumnList(value: string, what: string): string[] {
  const cursor = new Cursor(value, what);
  const names = [readFieldName(cursor)];
  cursor.skipSpaces();
  while (cursor.eat(',')) {
    names.push(readFieldName(cursor));
    cursor.skipSpaces();
  }
  if (!cursor.done) throw cursor.error('expecting "," or end of input');
  return names;
}
