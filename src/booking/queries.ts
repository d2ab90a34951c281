/**
 * What pricing and the stay rules need (the model is in model.ts), read as the API role (row-level security
 * applies): a handful of statements per request whatever the number of products, each a small `{ text, values }`
 * builder, and the functions that run them. The SQL fragments `governingConfigurations` and `blockingEventsOf` are
 * shared with the availability statement.
 */
import type { Queryable } from '../db/types.js';
import { addDays, daysBetween } from '../common/dates.js';
import { PRODUCT_COLUMN_NAMES, type Configuration, type Night } from './model.js';

export interface SqlQuery {
  text: string;
  values: readonly unknown[];
}

/** The fields of a `Configuration`, as CONFIGURATION_COLUMNS names them. */
const CONFIGURATION_FIELDS = [
  'id', 'check_in_days', 'checkout_days', 'min_duration', 'max_duration', 'min_advance', 'max_advance', 'cooldown_time',
  'long_rent_adjustments', 'early_bird_adjustments', 'last_minute_adjustments',
] as const satisfies readonly (keyof Configuration)[];

const CONFIGURATION_COLUMNS = `c.id, to_jsonb(c.check_in_days) AS check_in_days, to_jsonb(c.checkout_days) AS checkout_days,
  c.min_duration, c.max_duration, c.min_advance, c.max_advance, c.cooldown_time, c.long_rent_adjustments,
  c.early_bird_adjustments, c.last_minute_adjustments`;

/**
 * The configurations of the products matching `productCondition` (on `c.product_id`) that meet [first, last], each
 * with `governs`: the dates of [first, last] it decides. Where configurations overlap, a date belongs to the highest
 * `order`, then the latest update (docs/booking.md, Rules) — one window over each product's few configurations, not
 * a lookup per date.
 */
export function governingConfigurations(productCondition: string, first: string, last: string, columns: string): string {
  return `SELECT c.product_id, ${columns},
      c.intervals * datemultirange(daterange(${first}, ${last}, '[]')) - coalesce(range_agg(c.intervals) OVER (
        PARTITION BY c.product_id ORDER BY c."order" DESC, c.updated_at DESC, c.id DESC
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), '{}') AS governs
    FROM api.product_configurations AS c
    WHERE ${productCondition} AND c.intervals && daterange(${first}, ${last}, '[]')`;
}

const PRODUCT_COLUMNS = PRODUCT_COLUMN_NAMES.join(', ');

export function productsQuery(productIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT ${PRODUCT_COLUMNS}
           FROM api.products WHERE id = ANY ($1::uuid[]) AND deleted_at IS NULL ORDER BY created_at, id`,
    values: [productIds],
  };
}

/** Each product's configurations governing dates of [first, last], with their rate for `length` nights, `guests`. */
export function nightsQuery(productIds: readonly string[], first: string, last: string, length: number, guests: number): SqlQuery {
  const rate = `(SELECT (r ->> 'rate')::integer FROM jsonb_array_elements(c.rates) AS r
      WHERE (r ->> 'duration')::integer <= $4 AND (r ->> 'occupancy')::integer <= $5
      ORDER BY (r ->> 'duration')::integer DESC, (r ->> 'occupancy')::integer DESC
      LIMIT 1) AS rate`;
  return {
    // The configuration's fields as columns, put together in JavaScript: json_build_object rendered the adjustment
    // lists as text only for them to be parsed again (1,021 units: 14.4 -> 10.3 ms backend CPU per statement);
    // to_jsonb of the whole row also rendered the multirange. The dates are the multirange's text (datesOf).
    text: `SELECT cfg.product_id, cfg.rate, cfg.governs::text AS dates,
             ${CONFIGURATION_FIELDS.map((field) => `cfg.${field}`).join(', ')}
           FROM (${governingConfigurations('c.product_id = ANY ($1::uuid[])', '$2::date', '$3::date', `${CONFIGURATION_COLUMNS}, ${rate}`)}) AS cfg
           WHERE NOT isempty(cfg.governs)`,
    values: [productIds, first, last, length, guests],
  };
}

/**
 * The non-cancelled bookings and blocked periods of product `product` (an SQL expression) whose blocked range
 * [start, end + padding) meets [from, until), as a subquery. These events never overlap one another, padding
 * included (calendar_events_no_overlap), so only the last one starting before `from` can reach into the range: one
 * backward step plus a forward range on calendar_events_blocking_idx, where an overlap test (`&&`, not leakproof)
 * could not use an index under row-level security.
 */
export function blockingEventsOf(product: string, from: string, until: string): string {
  const columns = `SELECT e.id, e.product_id, e.start_date, e.end_date, e.padding, e.status, e.type
      FROM api.calendar_events AS e
      WHERE e.product_id = ${product} AND e.status <> 'CANCELLED' AND e.type IN ('booking', 'blocked period')`;
  return `(SELECT * FROM (
      (${columns} AND e.start_date < ${from} ORDER BY e.start_date DESC LIMIT 1)
      UNION ALL
      (${columns} AND e.start_date >= ${from} AND e.start_date < ${until})
    ) AS candidate WHERE candidate.end_date + candidate.padding > ${from})`;
}

/**
 * The stays and blocked periods of the relatives (ancestors and descendants by `parent_id`) of unit `product` whose
 * blocked range meets [from, until), as a subquery with the columns of blockingEventsOf plus `related_product_id`
 * (the relative's id). They block `product` too (docs/booking.md#related-units); unlike a unit's own events they may
 * overlap one another (two children booked on the same nights). Read from staykit_internal.unit_blocks, which holds
 * rows only for units that have relatives, so other units pay one empty index probe.
 */
export function relatedBlocksOf(product: string, from: string, until: string): string {
  return `(SELECT b.event_id AS id, b.unit_id AS product_id, b.start_date, b.end_date, b.padding, b.status,
      b.type, b.product_id AS related_product_id
    FROM staykit_internal.unit_blocks AS b
    WHERE b.unit_id = ${product} AND b.relation <> 'self' AND b.start_date < ${until}
      AND b.end_date + b.padding > ${from})`;
}

/** Per product, the blocking events that meet [from, until of that product): its own, then its relatives'. */
export function blockingEventsQuery(productIds: readonly string[], from: string, untils: readonly string[]): SqlQuery {
  const columns = `e.id, e.product_id, e.start_date::text AS start_date, e.end_date::text AS end_date, e.padding, e.status, e.type`;
  return {
    text: `SELECT ${columns}, NULL::uuid AS related_product_id
           FROM unnest($1::uuid[], $3::date[]) AS t(product_id, until)
           CROSS JOIN LATERAL ${blockingEventsOf('t.product_id', '$2::date', 't.until')} AS e
           UNION ALL
           SELECT ${columns}, e.related_product_id
           FROM unnest($1::uuid[], $3::date[]) AS t(product_id, until)
           CROSS JOIN LATERAL ${relatedBlocksOf('t.product_id', '$2::date', 't.until')} AS e
           ORDER BY product_id, start_date`,
    values: [productIds, from, untils],
  };
}

export function capacityGroupsQuery(): SqlQuery {
  return {
    text: `SELECT g.id, g.name, g.requires_explicit_input,
             coalesce((SELECT jsonb_agg(dep.element_id ORDER BY dep.element_id) FROM api.capacity_group_dependencies AS dep
                       WHERE dep.accumulator_id = g.id), '[]') AS elements
           FROM api.capacity_groups AS g ORDER BY g."order", g.id`,
    values: [],
  };
}

export function capacitiesQuery(productIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT product_id, capacity_group_id, min, max FROM api.capacities WHERE product_id = ANY ($1::uuid[])`,
    values: [productIds],
  };
}

export function servicesQuery(productIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT ps.product_id, s.id, s.name, s.description, s.type, s.pricing, s.required, s.max_quantity,
             coalesce((SELECT jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'pricing', o.pricing)
                                        ORDER BY o."order", o.id)
                       FROM api.service_options AS o WHERE o.service_id = s.id), '[]') AS options
           FROM api.product_services AS ps JOIN api.services AS s ON s.id = ps.service_id
           WHERE ps.product_id = ANY ($1::uuid[]) AND s.active
           ORDER BY ps.product_id, ps."order", s."order", s.id`,
    values: [productIds],
  };
}

export function taxesQuery(productIds: readonly string[]): SqlQuery {
  return {
    text: `SELECT pt.product_id, t.id, t.name, t.percentage::float8 AS percentage, t.inclusive, t.applies_to
           FROM api.product_taxes AS pt JOIN api.taxes AS t ON t.id = pt.tax_id
           WHERE pt.product_id = ANY ($1::uuid[])
           ORDER BY pt.product_id, t.inclusive DESC, t.name, t.id`,
    values: [productIds],
  };
}

/**
 * Active coupons by code, case-insensitively; the newest wins when a code was reused after a soft delete. `uses`
 * leaves out the uses of `ownBooking` (a booking being changed holds its uses already).
 */
export function couponsQuery(codes: readonly string[], ownBooking: string | null = null): SqlQuery {
  return {
    text: `SELECT DISTINCT ON (lower(c.code)) c.id, c.code, c.definition, c.quota, c.scope, c.stackable,
             (SELECT count(*) FROM api.coupon_uses AS u
              WHERE u.coupon_id = c.id AND u.booking_id IS DISTINCT FROM $2::uuid)::integer AS uses,
             coalesce((SELECT jsonb_agg(cp.product_id) FROM api.coupon_products AS cp WHERE cp.coupon_id = c.id), '[]')
               AS product_ids,
             coalesce((SELECT jsonb_agg(cs.service_id) FROM api.coupon_services AS cs WHERE cs.coupon_id = c.id), '[]')
               AS service_ids
           FROM api.coupons AS c
           WHERE lower(c.code) = ANY ($1::text[]) AND c.deleted_at IS NULL
           ORDER BY lower(c.code), c.created_at DESC, c.id`,
    values: [codes.map((code) => code.toLowerCase()), ownBooking],
  };
}

/**
 * Per-date overrides of the products matching `productCondition` (on `product_id`) for the dates of [first, last]:
 * one row per product and date that has any, with the rate, minimum stay and closure that apply. A manual
 * price_calendar_entries row wins over PriceLabs; PriceLabs' prices count only for units with pricelabs_enabled
 * and in the unit's currency (docs/booking.md#prices-per-date). Shared with the availability statement.
 */
export function dateOverrides(productCondition: (column: string) => string, first: string, last: string): string {
  return `SELECT coalesce(m.product_id, l.product_id) AS product_id, coalesce(m.date, l.date) AS date,
      coalesce(m.rate, l.price) AS rate, coalesce(m.min_duration, l.min_stay) AS min_duration,
      coalesce(m.closed, false) AS closed
    FROM (SELECT e.product_id, e.date, e.rate, e.min_duration, e.closed FROM api.price_calendar_entries AS e
          WHERE ${productCondition('e.product_id')} AND e.date BETWEEN ${first} AND ${last}) AS m
    FULL JOIN (SELECT pl.product_id, pl.date, pl.price, pl.min_stay
               FROM api.pricelabs_pricing AS pl JOIN api.products AS p ON p.id = pl.product_id
               WHERE ${productCondition('pl.product_id')} AND pl.date BETWEEN ${first} AND ${last}
                 AND p.pricelabs_enabled AND pl.currency = p.currency) AS l
      ON l.product_id = m.product_id AND l.date = m.date`;
}

interface OverrideRow {
  product_id: string;
  date: string;
  rate: number | null;
  min_duration: number | null;
  closed: boolean;
}

function dateOverridesQuery(productIds: readonly string[], first: string, last: string): SqlQuery {
  return {
    text: `SELECT o.product_id, o.date::text AS date, o.rate, o.min_duration, o.closed
           FROM (${dateOverrides((column) => `${column} = ANY ($1::uuid[])`, '$2::date', '$3::date')}) AS o`,
    values: [productIds, first, last],
  };
}

/** A night with its date's override applied: closed → no configuration; a minimum stay replaces the configuration's. */
function withOverride(night: Night, override: OverrideRow | undefined): Night {
  if (!override || !night.configuration) return night;
  if (override.closed) return { date: night.date, configuration: null, rate: null };
  return {
    date: night.date,
    configuration: override.min_duration === null ? night.configuration : { ...night.configuration, min_duration: override.min_duration },
    rate: override.rate ?? night.rate,
  };
}

/** A configuration's fields, and what it decides for one product. */
interface GoverningRow extends Configuration {
  product_id: string;
  rate: number | null;
  /** The dates this configuration governs, a multirange's text: `{[2027-03-01,2027-03-05),[2027-03-09,2027-03-10)}`. */
  dates: string;
}

/** The `[start, end)` ranges of a bounded datemultirange's text. */
function datesOf(multirange: string): [string, string][] {
  return [...multirange.matchAll(/\[(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2})\)/g)].map((match) => [match[1]!, match[2]!]);
}

/**
 * Every date of [first, last] for each product: its configuration and rate, or none (closed), with the date's
 * override applied (configuration < PriceLabs < manual entry).
 */
export async function loadNights(
  tx: Queryable, productIds: readonly string[], first: string, last: string, length: number, guests: number,
): Promise<Map<string, Night[]>> {
  // The dates and their positions are computed once, not per product and night: /search reads the nights of a
  // thousand units at once. A governed range ends at most the day after `last`, hence one position more.
  const dates = Array.from({ length: daysBetween(first, last) + 2 }, (_, i) => addDays(first, i));
  const positions = new Map(dates.map((date, i) => [date, i]));
  const position = (date: string): number => positions.get(date) ?? daysBetween(first, date);
  const nights = new Map(productIds.map((productId) => [productId,
    dates.slice(0, -1).map((date): Night => ({ date, configuration: null, rate: null }))]));
  for (const { product_id: productId, rate, dates: governed, ...configuration } of await run<GoverningRow>(
    tx, nightsQuery(productIds, first, last, length, guests))) {
    const list = nights.get(productId)!;
    for (const [start, end] of datesOf(governed)) {
      for (let i = position(start); i < position(end); i += 1) {
        list[i] = { date: list[i]!.date, configuration, rate };
      }
    }
  }
  for (const override of await run<OverrideRow>(tx, dateOverridesQuery(productIds, first, last))) {
    const list = nights.get(override.product_id)!;
    const i = position(override.date);
    list[i] = withOverride(list[i]!, override);
  }
  return nights;
}

/** Runs one statement in `tx` and returns its rows, typed as the caller expects them. */
export async function run<R>(tx: Queryable, q: SqlQuery): Promise<R[]> {
  return (await tx.query<R>(q.text, q.values)).rows;
}
