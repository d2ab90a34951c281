/**
 * The one mapping from a PostgreSQL error (thrown by `pg` or PGlite; both carry `code`, `message`, `detail`,
 * `hint`) to an ApiError, with PostgREST v12's SQLSTATE → HTTP table (`mapSQLtoHTTP` in its Error.hs): anything not
 * listed is a 400, as there. Staykit's additions (docs/design.md#errors): 23P01 exclusion violation → 409, a
 * statement timeout (57014) → 504, and a NUL character (22021, 22P05) → 400 SK707.
 */
import { ApiError } from './api-error.js';
import { apiError, ERROR_REGISTRY, type ErrorCode } from './registry.js';
import { nulCharacter } from './catalogue.js';

interface PgLikeError {
  code: string;
  message: string;
  detail?: string | undefined;
  hint?: string | undefined;
}

function isPgLikeError(error: unknown): error is PgLikeError {
  if (typeof error !== 'object' || error === null) return false;
  const candidate = error as { code?: unknown; message?: unknown };
  return typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code) && typeof candidate.message === 'string';
}

/** HTTP status for a SQLSTATE, as PostgREST maps it (`authenticated`: 42501 → 403, else 401). */
export function statusForSqlState(code: string, message = '', authenticated = true): number {
  const exact: Record<string, number> = {
    '23503': 409,
    '23505': 409,
    '23P01': 409, // Staykit: exclusion violation is a conflict like a unique violation
    '25006': 405,
    '53400': 500,
    '57P01': 503,
    '42P17': 500,
    P0001: 400,
  };
  if (code === '21000') return message.endsWith('requires a WHERE clause') ? 400 : 500;
  if (code === '22023') return message.startsWith('role') && message.endsWith('does not exist') ? 401 : 400;
  if (code === '42883') return message.startsWith('function xmlagg(') ? 406 : 404;
  if (code === '42P01') return 404;
  if (code === '42501') return authenticated ? 403 : 401;
  const direct = exact[code];
  if (direct !== undefined) return direct;
  const prefixes: [string, number][] = [
    ['08', 503],
    ['09', 500],
    ['0L', 403],
    ['0P', 403],
    ['25', 500],
    ['28', 403],
    ['2D', 500],
    ['38', 500],
    ['39', 500],
    ['3B', 500],
    ['40', 500],
    ['53', 503],
    ['54', 500],
    ['55', 500],
    ['57', 500],
    ['58', 500],
    ['F0', 500],
    ['HV', 500],
    ['P0', 500],
    ['XX', 500],
  ];
  for (const [prefix, status] of prefixes) if (code.startsWith(prefix)) return status;
  return 400;
}

/**
 * SQLSTATEs of a NUL character (U+0000), which PostgreSQL cannot store: in text (22021, "invalid byte sequence for
 * encoding UTF8: 0x00") or escaped in jsonb (22P05, "unsupported Unicode escape sequence"). Request bodies and targets
 * are refused before they get here (src/limits/body-guard.ts, request-size.ts); this keeps any other way in a 400.
 */
const NUL_CHARACTER_STATES = new Set(['22021', '22P05']);

export function isNulCharacterError(error: unknown): boolean {
  return isPgLikeError(error) && NUL_CHARACTER_STATES.has(error.code);
}

/** Errors of the connection itself (server gone, refused, reset, pool wait timed out), not of a statement. */
const CONNECTION_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_ERROR_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|the database system is (starting up|shutting down)/i;

export function isConnectionError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (CONNECTION_ERROR_CODES.has(code) || code.startsWith('08') || code === '57P01' || code === '57P03')) return true;
  return typeof message === 'string' && CONNECTION_ERROR_MESSAGES.test(message);
}

/** 503 while the database cannot be reached; clients retry after `Retry-After` seconds. */
export function databaseUnavailable(): ApiError {
  return apiError('SK503', { headers: { 'retry-after': '1' } });
}

/** Any error thrown by `tx.query` → ApiError. Non-database errors become a 500 without internals. */
export function fromDatabaseError(error: unknown, options: { authenticated?: boolean } = {}): ApiError {
  if (error instanceof ApiError) return error;
  if (isConnectionError(error)) return databaseUnavailable();
  if (!isPgLikeError(error)) {
    return apiError('PGRSTX00');
  }
  if (NUL_CHARACTER_STATES.has(error.code)) return nulCharacter(`a value sent to the database (${error.message})`);
  if (error.code === '57014') {
    // Staykit: a statement cancelled by statement_timeout is a gateway timeout, not an opaque 500.
    return new ApiError(504, error.code, error.message, {
      details: error.detail ?? null,
      hint: 'The request took longer than the statement timeout; narrow it with filters or a smaller limit',
    });
  }
  const status = staykitCodeStatus(error.code) ?? statusForSqlState(error.code, error.message, options.authenticated ?? true);
  return new ApiError(status, error.code, overlapMessage(error) ?? error.message, {
    details: error.detail ?? null,
    hint: error.hint ?? constraintHint(error) ?? null,
  });
}

/**
 * A refusal the database raises with a Staykit code as its SQLSTATE (a money trigger's `SK664`): the registry's
 * status, with the database's own message and hint.
 */
function staykitCodeStatus(code: string): number | undefined {
  return /^SK\d{3}$/.test(code) && code in ERROR_REGISTRY ? ERROR_REGISTRY[code as ErrorCode].status : undefined;
}

/** The `<table>_<column>_in_range` CHECKs bound every client-written date and timestamp (migration 0093). */
const RANGE_CONSTRAINT = /violates check constraint "[a-z0-9_]+_in_range"/;

/** The range the existing event holds, from the detail of a calendar_events_no_overlap violation: `…=(<unit>, [a,b))`. */
const TAKEN_RANGE = /conflicts with existing key \([^)]*\)=\([^,]+, \[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)\)/;

/**
 * The calendar's overlap in words a manager reads (the dates an existing booking or block holds), instead of
 * PostgreSQL's constraint text; the detail keeps PostgreSQL's. Other errors keep their message.
 */
function overlapMessage(error: PgLikeError): string | undefined {
  if (error.code !== '23P01' || !error.message.includes('calendar_events_no_overlap')) return undefined;
  const taken = TAKEN_RANGE.exec(error.detail ?? '');
  const when = taken ? ` from ${taken[1]} to ${taken[2]} (the day it is free again)` : '';
  return `These dates are taken: another booking or blocked period of this unit holds them${when}`;
}

/** What to do about a violated constraint, where PostgreSQL's message alone does not say it. */
function constraintHint(error: PgLikeError): string | undefined {
  if (overlapMessage(error) !== undefined) {
    return 'Choose other dates, or move or cancel the booking or block that holds them (a cooldown after a stay counts too)';
  }
  if (error.code === '23514' && RANGE_CONSTRAINT.test(error.message)) {
    return 'Dates must be between 1900-01-01 and 2199-12-31 (an exclusive end date may be 2200-01-01); timestamps '
      + 'from 1900-01-01T00:00:00Z up to 2200-01-01T00:00:00Z';
  }
  return undefined;
}
