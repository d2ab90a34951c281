/**
 * What the money tests share: an organization with a product and a booking written as the owner, and a client of
 * the resource API that speaks JSON.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/types.js';
import { insert } from '../support/fixtures.js';

export interface Booked {
  productId: string;
  bookingId: string;
}

/** A product and a booking of it (with its calendar event) in `currency`, as the owner. */
export async function bookingFixture(db: Queryable, organizationId: string, fields: { currency?: string; product?: Record<string, unknown>; status?: string } = {}): Promise<Booked> {
  const currency = fields.currency ?? 'EUR';
  const product = await insert<{ id: string }>(db, 'products', {
    organization_id: organizationId, name: { default: 'Dune House' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam',
    currency, ...fields.product,
  });
  const booking = await insert<{ id: string }>(db, 'bookings', { organization_id: organizationId, currency, display_currency: currency });
  await insert(db, 'calendar_events', {
    organization_id: organizationId, product_id: product.id, booking_id: booking.id, type: 'booking',
    status: fields.status ?? 'CONFIRMED', start_date: '2027-06-01', end_date: '2027-06-08',
  });
  return { productId: product.id, bookingId: booking.id };
}

export type Json = Record<string, unknown>;

export function resourceClient(app: FastifyInstance, key: string) {
  const headers = { authorization: `Bearer ${key}`, prefer: 'return=representation' };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url: `/v1/${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  return {
    call,
    /** POSTs one row and returns it (asserting 201). */
    async create(table: string, row: Json): Promise<Json> {
      const response = await call('POST', table, row);
      assert.equal(response.statusCode, 201, response.body);
      return (response.json() as Json[])[0]!;
    },
    /** PATCHes one row by id and returns it (asserting 200). */
    async update(table: string, id: string, fields: Json): Promise<Json> {
      const response = await call('PATCH', `${table}?id=eq.${id}`, fields);
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as Json[])[0]!;
    },
    async get(table: string, id: string): Promise<Json> {
      const response = await call('GET', `${table}?id=eq.${id}`);
      assert.equal(response.statusCode, 200, response.body);
      return (response.json() as Json[])[0]!;
    },
  };
}

/** Asserts an error answer: status, code, and (when given) a pattern over message and hint. */
export function assertRefused(response: LightMyRequestResponse, status: number, code: string, pattern?: RegExp): Json {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json() as Json;
  assert.equal(body.code, code, response.body);
  if (pattern) assert.match(`${String(body.message)}\n${String(body.hint)}`, pattern);
  return body;
}
