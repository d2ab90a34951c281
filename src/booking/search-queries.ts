/**
 * The statements only POST /v1/search needs, as `{ text, values }`; what it shares with quote and book (products,
 * nights, events, capacities, services, taxes) is in queries.ts.
 */
import type { Product } from './model.js';
import { PRODUCT_COLUMN_NAMES } from './model.js';
import type { SqlQuery } from './queries.js';

export interface RateRangeRow {
  product_id: string;
  min: number;
  max: number;
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

/** Why the availability index rules a unit out for a stay (docs/booking.md#availability-index). */
export interface RuledOut {
  /** A night of the stay is closed (no configuration governs it, or a per-date entry closes it). */
  closed: boolean;
  /** The blocking events the stay meets, cooldown included: bit 1 confirmed booking, 2 tentative booking, 4 blocked period. */
  blockers: number;
}

export const CONFIRMED_BOOKING = 1;
export const TENTATIVE_BOOKING = 2;
export const BLOCKED_PERIOD = 4;
/** In SearchUnitRow.ruled_out: a night of the stay is closed. */
export const CLOSED = 8;


/**
 * The products of the organization with rent period `period` that cannot take the stay [start, endExclusive)
 * (SQL expressions) according to the availability index, as a subquery of (product_id, closed, blockers): a closed
 * night, or a blocking event (of the kinds in `blockerMask`) on a night or in the cooldown the arrival date asks
 * for. A product is only ruled out when its rows cover every date read; the others are left to the full
 * computation. One index-only range scan over the organization's rows of those dates
 * (availability_days_search_idx), no join and no product list; skipped (one-time filter) when `units` (a relation
 * of the organization's products) has none of that period, so a daily stay costs nothing in a catalogue of nightly
 * units.
 */
function ruledOutOf(
  units: string, period: Product['rent_period'], start: string, endExclusive: string, length: string, blockerMask: string,
): string {
  // The scan's end is a date computed first: 'date < end + days' would apply date + integer, which is not
  // leakproof, so row-level security would keep it off the index and the scan would run to the horizon's end.
  // One hash aggregate per product, no sort: the cooldown is only known once the arrival's row is seen, so the days
  // after the stay (k = 0, 1, … from its end) are kept as bit masks — the days present, and the days with each kind
  // of blocker — and the arrival's cooldown picks its first days from them. A mask holds 62 days: a longer cooldown
  // is left to the full computation.
  const tail = (bit: string) => `bit_or(${bit}::bigint << (date - ${endExclusive})) FILTER (WHERE date >= ${endExclusive})`;
  return `(WITH reach AS (
      SELECT ${endExclusive} + least(coalesce(max(cooldown), 0), ${MAX_MASKED_COOLDOWN}) AS until
      FROM staykit_internal.availability_days WHERE date = ${start}
    ), product AS (
      SELECT product_id,
        count(*) FILTER (WHERE date < ${endExclusive}) AS days,
        coalesce(bool_or(NOT governed) FILTER (WHERE date < ${endExclusive}), false) AS closed,
        coalesce(bit_or(blockers) FILTER (WHERE date < ${endExclusive}), 0) AS blockers,
        max(cooldown) FILTER (WHERE date = ${start}) AS cooldown,
        coalesce(${tail('1')}, 0) AS after_days,
        coalesce(${tail(`(blockers & ${CONFIRMED_BOOKING} <> 0)::integer`)}, 0) AS after_confirmed,
        coalesce(${tail(`(blockers & ${TENTATIVE_BOOKING} <> 0)::integer`)}, 0) AS after_tentative,
        coalesce(${tail(`(blockers & ${BLOCKED_PERIOD} <> 0)::integer`)}, 0) AS after_blocked
      FROM (SELECT d.product_id, d.date, d.governed, d.cooldown, (d.blockers & ${blockerMask})::integer AS blockers
            FROM staykit_internal.availability_days AS d
            WHERE EXISTS (SELECT FROM ${units} WHERE rent_period = '${period}')
              AND d.date >= ${start} AND d.date < (SELECT until FROM reach)) AS d
      GROUP BY product_id
    ), verdict AS (
      SELECT product_id, closed, days, cooldown,
        blockers | (after_confirmed & cooldown_days <> 0)::integer * ${CONFIRMED_BOOKING}
          | (after_tentative & cooldown_days <> 0)::integer * ${TENTATIVE_BOOKING}
          | (after_blocked & cooldown_days <> 0)::integer * ${BLOCKED_PERIOD} AS blockers,
        after_days & cooldown_days = cooldown_days AS cooldown_covered
      FROM product, LATERAL (SELECT (1::bigint << least(cooldown, ${MAX_MASKED_COOLDOWN})) - 1 AS cooldown_days) AS mask
    )
    SELECT product_id, '${period}' AS rent_period, closed, blockers
    FROM verdict
    WHERE days = ${length}
      AND (closed OR (cooldown <= ${MAX_MASKED_COOLDOWN} AND cooldown_covered AND blockers <> 0)))`;
}

/** The longest cooldown the index's verdict covers (days after a stay kept in a bigint mask). */
const MAX_MASKED_COOLDOWN = 62;

/** A stay as the search statement takes it: [start, endExclusive) and its length in days. */
export interface StayDates {
  start: string;
  endExclusive: string;
  length: number;
}

/**
 * A product as /search reads it: its columns, whether the occupancy and the attribute options match, and why the
 * availability index rules it out for the stay of its rent period (both null when it does not).
 */
export interface SearchUnitRow extends Product {
  occupancy_matches: boolean;
  options_match: boolean;
  /** The index's verdict, null when it does not rule the unit out: the blockers' bits, and CLOSED when a night is. */
  ruled_out: number | null;
}

export interface SearchUnitsParameters {
  /** The stay of each rent period to rule units out for by the index, or null (nothing ruled out). */
  nightly: StayDates | null;
  daily: StayDates | null;
  blockerMask: number;
  /** The guests per capacity group (accumulators summed), or null: no occupancy given, every product matches. */
  occupancy: Record<string, number> | null;
  optionIds: readonly string[];
}

/**
 * Every live product of the organization with what /search decides in SQL, in one statement: the occupancy
 * against its capacities, the attribute options, and the availability index's verdict. Nothing per product is
 * read in JavaScript for the units the index rules out; what the others need is read for them alone.
 */
export function searchUnitsQuery(parameters: SearchUnitsParameters): SqlQuery {
  const { nightly, daily } = parameters;
  const value = (id: string) => `coalesce(($8::jsonb ->> ${id}::text)::integer, 0)`;
  return {
    // The products are read once (the daily index scan's gate reads them again, from memory). The index's
    // verdicts are one jsonb object looked up per product (a binary search of its keys): a join would be planned
    // from row-level security's estimates (a few dozen products, one verdict) as a nested loop over every pair —
    // 20 million comparisons for 5,000 units, measured.
    text: `WITH unit AS MATERIALIZED (
             SELECT ${PRODUCT_COLUMN_NAMES.join(', ')}, created_at
             FROM api.products WHERE deleted_at IS NULL
           ), ruled_out AS MATERIALIZED (
             SELECT coalesce(jsonb_object_agg(r.rent_period || r.product_id::text, r.blockers | r.closed::integer * ${CLOSED}), '{}') AS verdicts
             FROM (${ruledOutOf('unit', 'nightly', '$1::date', '$2::date', '$3::integer', '$7::smallint')}
                   UNION ALL ${ruledOutOf('unit', 'daily', '$4::date', '$5::date', '$6::integer', '$7::smallint')}) AS r
           )
           SELECT ${PRODUCT_COLUMN_NAMES.map((column) => `p.${column}`).join(', ')},
             $8::jsonb IS NULL OR NOT EXISTS (
               SELECT FROM api.capacities AS c
               WHERE c.product_id = p.id AND (${value('c.capacity_group_id')} < c.min OR ${value('c.capacity_group_id')} > c.max)
             ) AS occupancy_matches,
             cardinality($9::uuid[]) = 0 OR NOT EXISTS (
               SELECT FROM unnest($9::uuid[]) AS wanted(id)
               WHERE NOT EXISTS (SELECT FROM api.product_attribute_options AS o
                                 WHERE o.product_id = p.id AND o.attribute_option_id = wanted.id)
             ) AS options_match,
             (r.verdicts -> (p.rent_period || p.id::text))::integer AS ruled_out
           FROM unit AS p CROSS JOIN ruled_out AS r
           ORDER BY p.created_at, p.id`,
    values: [nightly?.start ?? null, nightly?.endExclusive ?? null, nightly?.length ?? null,
      daily?.start ?? null, daily?.endExclusive ?? null, daily?.length ?? null, parameters.blockerMask,
      parameters.occupancy === null ? null : JSON.stringify(parameters.occupancy), parameters.optionIds],
  };
}
