/** Request headers: Prefer (RFC 7240, PostgREST's preferences), Accept, Content-Type, Range. */
import { ApiError } from '../../errors/api-error.js';
import { invalidRange, mediaTypeNotAcceptable, unsupportedContentType } from '../../errors/catalogue.js';
import type { HeaderRange, MediaType, Preferences } from './types.js';

const KNOWN: Record<string, [keyof Omit<Preferences, 'invalid'>, string]> = {
  'return=minimal': ['return', 'minimal'],
  'return=headers-only': ['return', 'headers-only'],
  'return=representation': ['return', 'representation'],
  'count=exact': ['count', 'exact'],
  'count=planned': ['count', 'planned'],
  'count=estimated': ['count', 'estimated'],
  'resolution=merge-duplicates': ['resolution', 'merge-duplicates'],
  'resolution=ignore-duplicates': ['resolution', 'ignore-duplicates'],
  'missing=default': ['missing', 'default'],
  'missing=null': ['missing', 'null'],
  'handling=strict': ['handling', 'strict'],
  'handling=lenient': ['handling', 'lenient'],
  'tx=commit': ['tx', 'commit'],
  'tx=rollback': ['tx', 'rollback'],
  'params=single-object': ['params', 'single-object'],
};

/**
 * Comma-separated preferences; the first occurrence of each kind wins, as in PostgREST. `timezone=` is honoured when
 * its zone is one of `timezones` (PostgreSQL's `pg_timezone_names`, exact spelling); otherwise every `timezone=`
 * preference is invalid (PGRST122 under `handling=strict`, ignored without), as PostgREST 12 rules.
 */
export function parsePrefer(header: string | undefined, timezones: ReadonlySet<string> = new Set()): Preferences {
  const prefs: Preferences = {
    return: undefined,
    count: undefined,
    resolution: undefined,
    missing: undefined,
    handling: undefined,
    tx: undefined,
    maxAffected: undefined,
    timezone: undefined,
    params: undefined,
    invalid: [],
  };
  if (!header) return prefs;
  const zones = header.split(',').map((raw) => raw.trim()).filter((pref) => pref.startsWith('timezone='));
  const zone = zones[0]?.slice('timezone='.length);
  if (zone !== undefined && timezones.has(zone)) prefs.timezone = zone;
  const record = prefs as unknown as Record<string, string | undefined>;
  for (const raw of header.split(',')) {
    const pref = raw.trim();
    if (pref === '') continue;
    const known = KNOWN[pref];
    if (known) {
      const [key, value] = known;
      if (record[key] === undefined) record[key] = value;
    } else if (pref.startsWith('max-affected=')) {
      // As PostgREST: the first one counts; a value that is not an integer is ignored (and not an invalid preference).
      const value = pref.slice('max-affected='.length).trim();
      if (prefs.maxAffected === undefined && /^[0-9]+$/.test(value)) prefs.maxAffected = Number(value);
    } else if (!pref.startsWith('timezone=') || prefs.timezone === undefined) {
      prefs.invalid.push(pref);
    }
  }
  return prefs;
}

/** The `Preference-Applied` value for the given subset of preferences, in PostgREST's order. */
export function preferenceApplied(
  prefs: Preferences,
  include: readonly ('resolution' | 'missing' | 'return' | 'params' | 'count' | 'tx' | 'handling' | 'max-affected')[],
): string | undefined {
  const values: string[] = [];
  if (include.includes('resolution') && prefs.resolution) values.push(`resolution=${prefs.resolution}`);
  if (include.includes('missing') && prefs.missing) values.push(`missing=${prefs.missing}`);
  if (include.includes('return') && prefs.return) values.push(`return=${prefs.return}`);
  if (include.includes('params') && prefs.params) values.push(`params=${prefs.params}`);
  if (include.includes('count') && prefs.count) values.push(`count=${prefs.count}`);
  if (include.includes('tx') && prefs.tx) values.push(`tx=${prefs.tx}`);
  if (include.includes('handling') && prefs.handling) values.push(`handling=${prefs.handling}`);
  // Every response names an applied time zone (PostgREST 12's Response.hs).
  if (prefs.timezone) values.push(`timezone=${prefs.timezone}`);
  if (include.includes('max-affected') && prefs.handling === 'strict' && prefs.maxAffected !== undefined) {
    values.push(`max-affected=${prefs.maxAffected}`);
  }
  return values.length > 0 ? values.join(', ') : undefined;
}

interface AcceptEntry {
  type: string;
  quality: number;
  index: number;
}

function parseAcceptList(header: string): AcceptEntry[] {
  return header
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { type: type.toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.type !== '' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
}

const MEDIA: Record<string, MediaType> = {
  'application/json': 'json',
  'application/vnd.pgrst.array+json': 'json',
  'application/*': 'json',
  '*/*': 'json',
  'application/vnd.pgrst.object+json': 'object',
  'application/vnd.pgrst.object': 'object',
  'text/csv': 'csv',
  'text/*': 'csv',
};

export function negotiateAccept(header: string | undefined, allowCsv = true): MediaType {
  if (header === undefined || header.trim() === '') return 'json';
  for (const entry of parseAcceptList(header)) {
    const media = MEDIA[entry.type];
    if (media && (media !== 'csv' || allowCsv)) return media;
  }
  throw mediaTypeNotAcceptable(header);
}

export type BodyType = 'json' | 'csv';

/**
 * Staykit answers an unsupported request Content-Type with 415 (issue 3); PostgREST v12 answers 406 PGRST107 since
 * PostgREST PR #3224. The code stays PGRST107.
 */
export function parseContentType(header: string | undefined, allowCsv: boolean): BodyType {
  if (header === undefined || header.trim() === '') return 'json';
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'application/json' || type === 'application/vnd.pgrst.object+json') return 'json';
  if (type === 'text/csv' && allowCsv) return 'csv';
  throw unsupportedContentType(header);
}

/** `Range: 0-9` (items). A malformed header is ignored, as PostgREST does; `5-2` is a 416. */
export function parseRangeHeader(header: string | undefined): HeaderRange | undefined {
  if (!header) return undefined;
  const match = /^\s*(?:items=)?([0-9]+)-([0-9]*)\s*$/.exec(header);
  if (!match) return undefined;
  const lower = Number(match[1]);
  if (match[2] === '' || match[2] === undefined) return { offset: lower, limit: undefined };
  const upper = Number(match[2]);
  if (lower > upper) throw invalidRange({ kind: 'lower-gt-upper' });
  return { offset: lower, limit: upper - lower + 1 };
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
