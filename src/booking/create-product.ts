/**
 * POST /v1/create-product: the documented way to add a unit (the API role has no INSERT on products). Required:
 * `name` (a string or a multi-language object), `rent_period` (nightly | daily) and `timezone` (IANA). Every other
 * client-settable column is optional and gets the column's default; server-owned or unknown fields are a 400
 * (request-schemas.ts lists them).
 * The row is written by staykit_internal.create_product (its definition in effect: schema/schema.sql).
 */
import type { Queryable } from '../db/types.js';
import { invalidInput } from './errors.js';
import { run } from './queries.js';
import type { CreateProductBody } from './request-schemas.js';
import { createProductQuery, type CreatedProductRow } from './write-queries.js';

/** The columns that hold a text in several languages: a plain string is stored as `{"default": …}`. */
const MULTI_LANGUAGE = ['name', 'description', 'confirmation_message'] as const;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The validated body → the row's fields: multi-language texts as objects, the time zone one the runtime knows. */
export function toProductFields(body: CreateProductBody): Record<string, unknown> {
  const fields: Record<string, unknown> = { ...body };
  for (const key of MULTI_LANGUAGE) {
    if (typeof fields[key] === 'string') fields[key] = { default: fields[key] };
  }
  if (!isTimeZone(body.timezone)) throw invalidInput('timezone must be an IANA time zone such as Europe/Amsterdam');
  return fields;
}

export async function createProduct(tx: Queryable, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [created] = await run<CreatedProductRow>(tx, createProductQuery(fields));
  return created!.product;
}
