/**
 * Checks on every request body as it streams in, before any parser sees it (one place for the resource API, the
 * booking flow and every other route):
 * - a text body (JSON, CSV, text/*) must be valid UTF-8: a stray byte would otherwise be stored as U+FFFD;
 * - JSON may nest arrays and objects at most `maxDepth` levels deep: deeper documents make recursive code (request
 *   hashing, PostgreSQL's JSON functions) run out of stack, which must not become a 500 or a partial success.
 * Both answer 400 `PGRST102`, the code of an invalid JSON body.
 */
import { Transform, type TransformCallback } from 'node:stream';
import type { ApiError } from '../errors/api-error.js';
import { invalidJson } from '../errors/catalogue.js';

export const DEFAULT_MAX_JSON_DEPTH = 64;

const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export type BodyKind = 'json' | 'text' | 'other';

/** How a body of this Content-Type is read; no Content-Type is JSON, as the resource API reads it. */
export function bodyKind(contentType: string | undefined): BodyKind {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === '' || type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type)) return 'json';
  if (type.startsWith('text/')) return 'text';
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
 * characters of JSON are ASCII, which never occurs inside a multi-byte UTF-8 sequence, so the depth is counted on
 * the raw bytes; strings (and their escapes) are skipped.
 */
export class BodyGuard extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly kind: Exclude<BodyKind, 'other'>,
    private readonly maxDepth: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      callback(notUtf8());
      return;
    }
    if (this.kind === 'json' && !this.withinDepth(chunk)) {
      callback(tooDeep(this.maxDepth));
      return;
    }
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    try {
      this.decoder.decode();
    } catch {
      callback(notUtf8());
      return;
    }
    callback();
  }

  private withinDepth(chunk: Buffer): boolean {
    for (const byte of chunk) {
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
      } else if (byte === QUOTE) {
        this.inString = true;
      } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
        this.depth += 1;
        if (this.depth > this.maxDepth) return false;
      } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        this.depth -= 1;
      }
    }
    return true;
  }
}
