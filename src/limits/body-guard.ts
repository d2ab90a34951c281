/**
 * Checks on every request body as it streams in, before any parser sees it (one place for the resource API, the
 * booking flow, /auth and every other route):
 * - a text body (JSON, CSV, text/*) must be valid UTF-8: a stray byte would otherwise be stored as U+FFFD;
 * - JSON may nest arrays and objects at most `maxDepth` levels deep: deeper documents make recursive code (request
 *   hashing, PostgreSQL's JSON functions) run out of stack, which must not become a 500 or a partial success.
 * Both answer 400 `PGRST102`, the code of an invalid JSON body.
 * - no text may hold the NUL character (U+0000), which PostgreSQL's text and jsonb cannot store (SQLSTATE 22021 /
 *   22P05, a 500 where it reached the database outside a mapped statement): the `\u0000` escape in a JSON string or
 *   key, a raw 0x00 byte in any read body, `%00` in a form. 400 `SK707`. The request target's `%00` is refused in
 *   request-size.ts, so no route sees a NUL in any text.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ApiError } from '../errors/api-error.js';
import { invalidJson, nulCharacter } from '../errors/catalogue.js';

export const DEFAULT_MAX_JSON_DEPTH = 64;

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUL = 0x00;
const LOWER_U = 0x75;
const ZERO = 0x30;
const PERCENT = 0x25;
const HEX_DIGIT = /^[0-9A-Fa-f]$/;

export type BodyKind = 'json' | 'text' | 'form' | 'other';

/** How a body of this Content-Type is read; no Content-Type is JSON, as the resource API reads it. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type)) return 'json';
  if (type.startsWith('text/')) return 'text';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  return 'other';
}

export function tooDeep(maxDepth: number): ApiError {
  return invalidJson(`JSON may nest arrays and objects at most ${maxDepth} levels deep`);
}

export function notUtf8(): ApiError {
  return invalidJson('The request body is not valid UTF-8', 'Send request bodies encoded as UTF-8');
}

/**
 * Passes the body through unchanged and fails the stream with a 400 at the first byte past a limit. The structural
 * characters of JSON (and `%`, `\`, `u`, `0`) are ASCII, which never occurs inside a multi-byte UTF-8 sequence, so
 * the body is scanned as raw bytes; the state carries over from one chunk to the next.
 */
export class BodyGuard extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Hex digits still to come of a `\uXXXX` escape, and whether all so far were `0`. */
  private unicodeDigits = 0;
  private unicodeZero = false;
  /** Of a form's `%00`: the characters of it seen last (0: none, 1: `%`, 2: `%0`). */
  private percent = 0;

  constructor(
    private readonly kind: Exclude<BodyKind, 'other'>,
    private readonly maxDepth: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.kind !== 'form') {
      try {
        this.decoder.decode(chunk, { stream: true });
      } catch {
        callback(notUtf8());
        return;
      }
    }
    const refused = this.scan(chunk);
    if (refused) callback(refused);
    else callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    if (this.kind !== 'form') {
      try {
        this.decoder.decode();
      } catch {
        callback(notUtf8());
        return;
      }
    }
    callback();
  }

  private scan(chunk: Buffer): ApiError | undefined {
    if (this.kind === 'json') return this.scanJson(chunk);
    if (this.kind === 'form') return this.scanForm(chunk);
    return chunk.includes(NUL) ? nulCharacter('the request body') : undefined;
  }

  private scanForm(chunk: Buffer): ApiError | undefined {
    for (const byte of chunk) {
      if (byte === NUL || (this.percent === 2 && byte === ZERO)) return nulCharacter('the request body');
      this.percent = byte === PERCENT ? 1 : this.percent > 0 && byte === ZERO ? this.percent + 1 : 0;
    }
    return undefined;
  }

  private scanJson(chunk: Buffer): ApiError | undefined {
    for (const byte of chunk) {
      if (byte === NUL) return nulCharacter('the request body');
      if (this.inString) {
        if (this.unicodeDigits > 0 && HEX_DIGIT.test(String.fromCharCode(byte))) {
          this.unicodeDigits -= 1;
          this.unicodeZero &&= byte === ZERO;
          if (this.unicodeDigits === 0 && this.unicodeZero) return nulCharacter('a string of the JSON body');
          continue;
        }
        // Not a hex digit: the escape is malformed, which the JSON parser reports; go on as after it.
        this.unicodeDigits = 0;
        if (this.escaped) {
          this.escaped = false;
          if (byte === LOWER_U) [this.unicodeDigits, this.unicodeZero] = [4, true];
        } else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        this.depth += 1;
        if (this.depth > this.maxDepth) return tooDeep(this.maxDepth);
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        this.depth -= 1;
      }
    }
    return undefined;
  }
}
