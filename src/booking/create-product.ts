/**
 * POST /v1/create-product: the documented way to add a unit (the API role has no INSERT on products). Required:
 * `name` (a string or a multi-language object), `rent_period` (nightly | daily) and `timezone` (IANA). Every other
 * column the database's rules make insertable (staykit_internal.api_access, migration 0221) is optional and gets the
 * column's default. Which fields those are is the database's to say, not a list here: staykit_internal.create_product
 * (its definition in effect: schema/schema.sql) refuses any other field, 400 SK601 naming it, so a column added to
 * products is settable without an edit of this file.
 */
import type { Queryable } from '../db/types.js';
import { invalidInput } from './errors.js';
import { isObject, requireObject } from './input.js';
import { run } from './queries.js';
import { createProductQuery, type CreatedProductRow } from './write-queries.js';

const MULTI_LANGUAGE = ['name', 'description', 'confirmation_message'];

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function parseProductInput(value: unknown): Record<string, unknown> {
  const body = { ...requireObject(value, 'The request body') };
  for (const key of MULTI_LANGUAGE) {
    if (typeof body[key] === 'string') body[key] = { default: body[key] };
  }
  if (!isObject(body.name) || typeof body.name.default !== 'string' || body.name.default.trim() === '') {
    throw invalidInput('name is required: a non-empty string or {"default": "…", "<language>": "…"}');
  }
  if (body.rent_period !== 'nightly' && body.rent_period !== 'daily') throw invalidInput('rent_period must be nightly or daily');
  if (typeof body.timezone !== 'string' || !isTimeZone(body.timezone)) {
    throw invalidInput('timezone must be an IANA time zone such as Europe/Amsterdam');
  }
  if (body.interaction !== undefined && body.interaction !== 'request' && body.interaction !== 'book') {
    throw invalidInput('interaction must be request or book');
  }
  return body;
}

export async function createProduct(tx: Queryable, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const [created] = await run<CreatedProductRow>(tx, createProductQuery(fields));
  return created!.product;
}
