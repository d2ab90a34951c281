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
 * The products among `productIds` that cannot take the stay [start, endExclusive) according to the availability
 * index: a closed night, or a blocking event (of the kinds in `blockerMask`) on a night or in the cooldown the
 * arrival date asks for. A product is only ruled out when its rows cover every date read; the others are left to
 * the full computation. One index-only range scan over the organization's rows of those dates.
 */
export function ruledOutQuery(productIds: readonly string[], start: string, endExclusive: string, length: number, blockerMask: number): SqlQuery {
  return {
    text: `WITH arrival AS (
             SELECT product_id, cooldown FROM staykit_internal.availability_days
             WHERE date = $2::date AND product_id = ANY ($1::uuid[])
           )
           SELECT a.product_id, coalesce(bool_or(NOT d.governed) FILTER (WHERE d.date < $3::date), false) AS closed,
             coalesce(bit_or(d.blockers & $5::smallint) FILTER (WHERE d.date < $3::date + a.cooldown), 0)::integer AS blockers
           FROM arrival AS a JOIN staykit_internal.availability_days AS d ON d.product_id = a.product_id
           WHERE d.date >= $2::date AND d.date < $3::date + (SELECT coalesce(max(cooldown), 0) FROM arrival)
           GROUP BY a.product_id, a.cooldown
           HAVING count(*) FILTER (WHERE d.date < $3::date) = $4
             AND (bool_or(NOT d.governed) FILTER (WHERE d.date < $3::date)
                  OR (count(*) FILTER (WHERE d.date < $3::date + a.cooldown) = $4 + a.cooldown
                      AND bit_or(d.blockers & $5::smallint) FILTER (WHERE d.date < $3::date + a.cooldown) <> 0))`,
    values: [productIds, start, endExclusive, length, blockerMask],
  };
}
