/**
 * GET /v1/availability: per product, the timeline of day statuses as half-open intervals, and optionally every
 * day with its check-in/checkout possibility, duration limits and rate — enough to draw a date picker from one
 * call. One SQL statement gives each date its configuration and the event (or cooldown padding) covering it;
 * the statuses and flags are derived here by pure functions.
 */
import type { Queryable } from '../db/types.js';
import { addDays, daysBetween, isDate, todayIn, weekdayIndex } from './dates.js';
import { invalidInput, productNotFound } from './errors.js';
import { UUID } from './input.js';

export type DayStatus = 'available' | 'tentative' | 'unavailable' | 'booked' | 'reserved' | 'closed';

export interface ShowOptions {
  showBookedAs: 'booked' | 'unavailable';
  showClosedAs: 'closed' | 'unavailable';
  showPendingAs: 'CANCELLED' | 'TENTATIVE' | 'CONFIRMED';
}

export interface AvailabilityQuery extends ShowOptions {
  productIds: string[] | null;
  start: string | null;
  end: string | null;
  includeDays: boolean;
  /** Sync the products' external calendars first (bounded wait; docs/ical.md). */
  performSync: boolean;
}

/** A date of a product as the database sees it. `block`: what covers the date, if anything. */
export interface DayRow {
  product_id: string;
  timezone: string;
  rent_period: 'nightly' | 'daily';
  product_cooldown: number | null;
  date: string;
  configuration_id: string | null;
  check_in_days: boolean[] | null;
  checkout_days: boolean[] | null;
  min_duration: number | null;
  max_duration: number | null;
  min_advance: number | null;
  max_advance: number | null;
  cooldown_time: number | null;
  rate: number | null;
  block: 'booked' | 'tentative' | 'blocked' | 'padding' | null;
}

export interface Day {
  date: string;
  status: DayStatus;
  check_in: boolean;
  checkout: boolean;
  min_duration: number | null;
  max_duration: number | null;
  rate: number | null;
}

export interface ProductAvailability {
  product_id: string;
  intervals: { start: string; end: string; status: DayStatus }[];
  days?: Day[];
}

export const MAX_RANGE_DAYS = 1100;
/** Days read past `end` so check-in flags near the end can see the nights (and cooldown) after it. */
const LOOKAHEAD_DAYS = 62;

function pick<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function parseShowOptions(source: Record<string, unknown>): ShowOptions {
  return {
    showBookedAs: pick(source.show_booked_as, 'show_booked_as', ['booked', 'unavailable'] as const, 'unavailable'),
    showClosedAs: pick(source.show_closed_as, 'show_closed_as', ['closed', 'unavailable'] as const, 'unavailable'),
    showPendingAs: pick(source.show_pending_as, 'show_pending_as', ['CANCELLED', 'TENTATIVE', 'CONFIRMED'] as const, 'TENTATIVE'),
  };
}

export function parseAvailabilityQuery(query: Record<string, unknown>): AvailabilityQuery {
  const single = (name: string): unknown => (Array.isArray(query[name]) ? (query[name] as unknown[]).at(-1) : query[name]);
  const ids = [single('product_ids'), single('product_id')].filter((value) => value !== undefined && value !== '');
  let productIds: string[] | null = null;
  if (ids.length > 0) {
    productIds = ids.flatMap((value) => String(value).split(',')).map((id) => id.trim()).filter(Boolean);
    for (const id of productIds) if (!UUID.test(id)) throw invalidInput('product_ids must be a comma-separated list of uuids', `got "${id}"`);
    productIds = [...new Set(productIds.map((id) => id.toLowerCase()))];
    if (productIds.length > 1000) throw invalidInput('at most 1000 product_ids');
  }
  const start = single('start');
  const end = single('end');
  if (start !== undefined && !isDate(start)) throw invalidInput('start must be a date (YYYY-MM-DD)');
  if (end !== undefined && !isDate(end)) throw invalidInput('end must be a date (YYYY-MM-DD)');
  const performSync = single('perform_sync');
  if (performSync !== undefined && performSync !== 'true' && performSync !== 'false') {
    throw invalidInput('perform_sync must be true or false');
  }
  const include = single('include');
  if (include !== undefined && include !== '' && include !== 'days') throw invalidInput('include must be days');
  return {
    productIds,
    start: (start as string | undefined) ?? null,
    end: (end as string | undefined) ?? null,
    includeDays: include === 'days',
    performSync: performSync === 'true',
    ...parseShowOptions(query),
  };
}

/**
 * One statement: every date of [first, last] of each product with its configuration and what blocks it. Events are
 * expanded into their blocked dates once and joined by (product, date) — not looked up per date — so a year for a
 * hundred products stays a few hash joins.
 */
export function availabilityQuery(productIds: string[] | null, first: string, last: string, includeTentative: boolean) {
  return {
    text: `WITH p AS (
             SELECT id, timezone, rent_period, created_at,
               CASE WHEN rent_pricing_definition = 'services' THEN cooldown_time END AS product_cooldown
             FROM api.products
             WHERE deleted_at IS NULL AND ($1::uuid[] IS NULL OR id = ANY ($1::uuid[]))
           ), days AS (
             SELECT p.id AS product_id, g::date AS date
             FROM p CROSS JOIN generate_series($2::date, $3::date, interval '1 day') AS g
           ), cfg AS MATERIALIZED (
             SELECT c.id, c.product_id, c.intervals, c."order", c.updated_at,
               to_jsonb(c.check_in_days) AS check_in_days, to_jsonb(c.checkout_days) AS checkout_days,
               c.min_duration, c.max_duration, c.min_advance, c.max_advance, c.cooldown_time,
               (SELECT min((r ->> 'rate')::integer) FROM jsonb_array_elements(c.rates) AS r
                WHERE (r ->> 'duration')::integer <= greatest(c.min_duration, 1)) AS rate
             FROM api.product_configurations AS c
             WHERE c.product_id IN (SELECT id FROM p)
           ), day_cfg AS (
             SELECT DISTINCT ON (days.product_id, days.date) days.product_id, days.date, cfg.id, cfg.check_in_days,
               cfg.checkout_days, cfg.min_duration, cfg.max_duration, cfg.min_advance, cfg.max_advance, cfg.cooldown_time,
               cfg.rate
             FROM days JOIN cfg ON cfg.product_id = days.product_id AND cfg.intervals @> days.date
             ORDER BY days.product_id, days.date, cfg."order" DESC, cfg.updated_at DESC, cfg.id DESC
           ), blocks AS (
             SELECT DISTINCT ON (ev.product_id, b.date) ev.product_id, b.date,
               CASE WHEN b.date >= ev.end_date THEN 'padding'
                    WHEN ev.type = 'blocked period' THEN 'blocked'
                    WHEN ev.status = 'CONFIRMED' THEN 'booked'
                    ELSE 'tentative' END AS block
             FROM api.calendar_events AS ev
             CROSS JOIN LATERAL (
               SELECT g::date AS date
               FROM generate_series(greatest(ev.start_date, $2::date), least(ev.end_date + ev.padding - 1, $3::date), interval '1 day') AS g
             ) AS b
             WHERE ev.product_id IN (SELECT id FROM p) AND ev.status <> 'CANCELLED'
               AND ev.type IN ('booking', 'blocked period') AND ($4 OR ev.type <> 'booking' OR ev.status <> 'TENTATIVE')
               AND ev.start_date <= $3::date AND ev.end_date + ev.padding > $2::date
             ORDER BY ev.product_id, b.date, (b.date < ev.end_date) DESC, ev.start_date
           )
           SELECT p.id AS product_id, p.timezone, p.rent_period, p.product_cooldown, days.date::text AS date,
             dc.id AS configuration_id, dc.check_in_days, dc.checkout_days, dc.min_duration, dc.max_duration,
             dc.min_advance, dc.max_advance, dc.cooldown_time, dc.rate, blocks.block
           FROM days
           JOIN p ON p.id = days.product_id
           LEFT JOIN day_cfg AS dc ON dc.product_id = days.product_id AND dc.date = days.date
           LEFT JOIN blocks ON blocks.product_id = days.product_id AND blocks.date = days.date
           ORDER BY p.created_at, p.id, days.date`,
    values: [productIds, first, last, includeTentative],
  };
}

export function dayStatus(row: DayRow, today: string, show: ShowOptions): DayStatus {
  if (row.date < today) return 'unavailable';
  const booked = show.showBookedAs === 'booked' ? 'booked' : 'unavailable';
  switch (row.block) {
    case 'booked':
      return booked;
    case 'tentative':
      return show.showPendingAs === 'CONFIRMED' ? booked : 'tentative';
    case 'blocked':
      return 'unavailable';
    case 'padding':
      return 'reserved';
    default:
      if (!row.configuration_id) return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
      return 'available';
  }
}

/**
 * Days with statuses and flags for one product; `rows` run from the day before the range to past its end.
 * check_in: a stay of the minimum length may start here (weekday, advance, nights free, cooldown after it free).
 * checkout: a stay may end here (weekday of the configuration of the last night, that night free, cooldown free).
 */
export function buildDays(rows: DayRow[], first: string, end: string, today: string, show: ShowOptions): Day[] {
  // rows are consecutive dates (generate_series), so "n days later" is "n rows later".
  const free = (i: number): boolean => {
    const row = rows[i];
    return row !== undefined && row.configuration_id !== null && row.block === null && row.date >= today;
  };
  const unblocked = (from: number, days: number): boolean => {
    for (let i = from; i < from + days && i < rows.length; i += 1) if (rows[i]!.block !== null) return false;
    return true;
  };
  const cooldown = (row: DayRow): number => row.product_cooldown ?? row.cooldown_time ?? 0;
  const todayMs = Date.parse(`${today}T00:00:00Z`);
  const days: Day[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    if (row.date < first || row.date >= end) continue;
    const status = dayStatus(row, today, show);
    const weekday = weekdayIndex(row.date);
    let checkIn = false;
    if (status === 'available' && row.check_in_days?.[weekday]) {
      const advance = Math.round((Date.parse(`${row.date}T00:00:00Z`) - todayMs) / 86_400_000);
      const length = Math.max(row.min_duration ?? 1, 1);
      checkIn = advance >= (row.min_advance ?? 0) && (!row.max_advance || advance <= row.max_advance);
      for (let night = 0; checkIn && night < length; night += 1) checkIn = free(i + night);
      checkIn &&= unblocked(i + length, cooldown(row));
    }
    let checkout = false;
    if (row.rent_period === 'nightly') {
      const lastNight = rows[i - 1];
      checkout = lastNight !== undefined && free(i - 1) && Boolean(lastNight.checkout_days?.[weekday])
        && unblocked(i, cooldown(lastNight));
    } else {
      checkout = free(i) && Boolean(row.checkout_days?.[weekday]) && unblocked(i + 1, cooldown(row));
    }
    days.push({
      date: row.date, status, check_in: checkIn, checkout, min_duration: row.min_duration, max_duration: row.max_duration,
      rate: row.configuration_id ? row.rate : null,
    });
  }
  return days;
}

export function toIntervals(days: Day[]): ProductAvailability['intervals'] {
  const intervals: ProductAvailability['intervals'] = [];
  for (let i = 0; i < days.length; i += 1) {
    const day = days[i]!;
    const next = days[i + 1]?.date ?? addDays(day.date, 1);
    const last = intervals.at(-1);
    if (last && last.status === day.status && last.end === day.date) last.end = next;
    else intervals.push({ start: day.date, end: next, status: day.status });
  }
  return intervals;
}

export async function availability(tx: Queryable, query: AvailabilityQuery, now: Date): Promise<ProductAvailability[]> {
  const start = query.start ?? todayIn('UTC', now);
  const end = query.end ?? addDays(start, 365);
  if (end <= start) throw invalidInput('end must be after start');
  if (daysBetween(start, end) > MAX_RANGE_DAYS) throw invalidInput(`at most ${MAX_RANGE_DAYS} days per request`);
  const q = availabilityQuery(query.productIds, addDays(start, -1), addDays(end, LOOKAHEAD_DAYS), query.showPendingAs !== 'CANCELLED');
  const { rows } = await tx.query<DayRow>(q.text, q.values);
  const byProduct = new Map<string, DayRow[]>();
  for (const row of rows) {
    const list = byProduct.get(row.product_id);
    if (list) list.push(row);
    else byProduct.set(row.product_id, [row]);
  }
  const order = query.productIds ?? [...byProduct.keys()];
  const result: ProductAvailability[] = [];
  for (const productId of order) {
    const productRows = byProduct.get(productId);
    if (!productRows) throw productNotFound(productId);
    const today = todayIn(productRows[0]!.timezone, now);
    const days = buildDays(productRows, start, end, today, query);
    result.push({ product_id: productId, intervals: toIntervals(days), ...(query.includeDays ? { days } : {}) });
  }
  return result;
}
