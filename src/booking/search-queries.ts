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
