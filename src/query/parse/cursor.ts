/**
 * A tiny character cursor for the hand-written query-parameter parsers, producing PostgREST-style PGRST100 errors:
 * message `"failed to parse <what> (<input>)" (line 1, column <n>)`, details `unexpected … expecting …`.
 */
import type { ApiError } from '../../errors/api-error.js';
import { queryParamError } from '../../errors/catalogue.js';

export class Cursor {
  pos = 0;
  constructor(
    readonly input: string,
    readonly what: string,
    /** The text shown in error messages (PostgREST shows a logic tree's value without its operator). */
    readonly shown: string = input,
  ) {}

  get done(): boolean {
    return this.pos >= this.input.length;
  }

  peek(offset = 0): string {
    return this.input[this.pos + offset] ?? '';
  }

  startsWith(text: string): boolean {
    return this.input.startsWith(text, this.pos);
  }

  /** Consumes `text` if it is next. */
  eat(text: string): boolean {
    if (!this.startsWith(text)) return false;
    this.pos += text.length;
    return true;
  }

  expect(text: string): void {
    if (!this.eat(text)) throw this.error(`expecting "${text}"`);
  }

  skipSpaces(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.pos += 1;
  }

  rest(): string {
    const value = this.input.slice(this.pos);
    this.pos = this.input.length;
    return value;
  }

  error(expecting: string, at = this.pos): ApiError {
    const found = at >= this.input.length ? 'end of input' : `"${this.input[at]}"`;
    return queryParamError(
      `"failed to parse ${this.what} (${this.shown})" (line 1, column ${at + 1})`,
      `unexpected ${found} ${expecting}`.trim(),
    );
  }

  fail(details: string, at = this.pos): ApiError {
    return queryParamError(`"failed to parse ${this.what} (${this.shown})" (line 1, column ${at + 1})`, details);
  }
}

const IDENTIFIER_CHAR = /[\p{L}\p{N}_ $]/u;

/** PostgREST's identifier characters: letters, digits, `_`, space, `$`. */
export function isIdentifierChar(ch: string): boolean {
  return ch !== '' && IDENTIFIER_CHAR.test(ch);
}

/** A double-quoted value with backslash escapes, the cursor on the opening quote. */
export function readQuoted(cursor: Cursor): string {
  const start = cursor.pos;
  cursor.expect('"');
  let value = '';
  for (;;) {
    const ch = cursor.peek();
    if (ch === '') throw cursor.error('expecting closing quote', start);
    cursor.pos += 1;
    if (ch === '"') return value;
    if (ch === '\\') {
      const next = cursor.peek();
      if (next === '') throw cursor.error('expecting escaped character');
      value += next;
      cursor.pos += 1;
    } else value += ch;
  }
}

/**
 * A field name: quoted, or identifier parts joined by `-` (a dash not starting `->`). Leading/trailing spaces of
 * unquoted names are dropped, as PostgREST does.
 */
export function readFieldName(cursor: Cursor): string {
  cursor.skipSpaces();
  if (cursor.peek() === '"') return readQuoted(cursor);
  const start = cursor.pos;
  let value = '';
  for (;;) {
    const ch = cursor.peek();
    if (isIdentifierChar(ch)) {
      value += ch;
      cursor.pos += 1;
    } else if (ch === '-' && cursor.peek(1) !== '>' && value.length > 0 && isIdentifierChar(cursor.peek(1))) {
      value += ch;
      cursor.pos += 1;
    } else break;
  }
  const trimmed = value.trim();
  if (trimmed === '') throw cursor.error('expecting field name (* or [a..z0..9_$])', start);
  return trimmed;
}
