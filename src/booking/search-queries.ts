/**
 * The statements only POST /v1/search needs, as `{ text, values }`; what it shares with quote and book (products,
 * nights, events, capacities, services, taxes) is in queries.ts.
 */
import type { SqlQuery } from './queries.js';

export interface AttributeOptionRow {
  product_id: string;
  attribute_option_id: string;
}

export interface RateRangeRow {
  product_id: string;
  min: number;
  max: number;
}

/** The attribute options each product has. */
export function attributeOptionsQuery(productIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT product_id, attribute_option_id FROM api.product_attribute_options
           WHERE product_id = ANY ($1::uuid[])`,
    values: [productIds],
  };
}

/**
 * Each product's lowest and highest nightly rate over all its configurations, counting only the rates for at most
 * `guests` guests (every rate when `guests` is null).
 */
export function rateRangesQuery(productIds: readonly string[], guests: number | null): SqlQuery {
  return {
    text: `SELECT c.product_id, min((r ->> 'rate')::integer) AS min, max((r ->> 'rate')::integer) AS max
           FROM api.product_configurations AS c CROSS JOIN LATERAL jsonb_array_elements(c.rates) AS r
           WHERE c.product_id = ANY ($1::uuid[]) AND ($2::integer IS NULL OR (r ->> 'occupancy')::integer <= $2)
           GROUP BY c.product_id`,
    values: [productIds, guests],
  };
}

/** A unit the availability index rules out for a stay, and why (docs/booking.md#availability-index). */
export interface RuledOutRow {
  product_id: string;
  /** A night of the stay is closed (no configuration governs it, or a per-date entry closes it). */
  closed: boolean;
  /** The blocking events the stay meets, cooldown included: bit 1 confirmed booking, 2 tentative booking, 4 blocked period. */
  blockers: number;
}

export const CONFIRMED_BOOKING = 1;
export const TENTATIVE_BOOKING = 2;
export const BLOCKED_PERIOD = 4;

/**
 * The organization's products that cannot take the stay [start, endExclusive) according to the availability index:
 * a closed night, or a blocking event (of the kinds in `blockerMask`) on a night or in the cooldown the arrival date
 * asks for. A product is only ruled out when its rows cover every date read; the others are left to the full
 * computation. One index-only range scan over the organization's rows of those dates (availability_days_search_idx),
 * no join and no product list: the caller keeps the products it asked about.
 */
export function ruledOutQuery(start: string, endExclusive: string, length: number, blockerMask: number): SqlQuery {
  return {
    // The scan's end is a date computed first: 'date < $2 + days' would apply date + integer, which is not
    // leakproof, so row-level security would keep it off the index and the scan would run to the horizon's end.
    text: `WITH reach AS (
             SELECT $2::date + coalesce(max(cooldown), 0) AS until FROM staykit_internal.availability_days WHERE date = $1::date
           ), day AS (
             SELECT d.product_id, d.date, d.governed, d.blockers & $4::smallint AS blockers,
               max(d.cooldown) FILTER (WHERE d.date = $1::date) OVER (PARTITION BY d.product_id) AS cooldown
             FROM staykit_internal.availability_days AS d
             WHERE d.date >= $1::date AND d.date < (SELECT until FROM reach)
           )
           SELECT product_id, coalesce(bool_or(NOT governed) FILTER (WHERE date < $2::date), false) AS closed,
             coalesce(bit_or(blockers) FILTER (WHERE date < $2::date + cooldown), 0)::integer AS blockers
           FROM day
           GROUP BY product_id, cooldown
           HAVING count(*) FILTER (WHERE date < $2::date) = $3
             AND (bool_or(NOT governed) FILTER (WHERE date < $2::date)
                  OR (count(*) FILTER (WHERE date < $2::date + cooldown) = $3 + cooldown
                      AND bit_or(blockers) FILTER (WHERE date < $2::date + cooldown) <> 0))`,
    values: [start, endExclusive, length, blockerMask],
  };
}
