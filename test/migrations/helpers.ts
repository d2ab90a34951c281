/**
 * Shared helpers of the schema tests: a rolled-back transaction, the API role's request context, a small
 * organization fixture, and an assertion on SQLSTATE codes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../../src/db/types.js';
import { fixtures, organization } from '../support/fixtures.js';

class RolledBack extends Error {}

/** Runs `fn` in a transaction that is always rolled back; returns what `fn` returned. */
export async function inRollback<T>(db: Database, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  let result: T | undefined;
  try {
    await db.transaction(async (tx) => {
      result = await fn(tx);
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return result as T;
}

/** Runs `fn` as an API request would: role staykit_api, organization setting (unless null), then rolls back. */
export async function asApi<T>(
  db: Database,
  organizationId: string | null,
  fn: (tx: Transaction) => Promise<T>,
  options: { userId?: string } = {},
): Promise<T> {
  return inRollback(db, async (tx) => {
    await tx.query(`SET LOCAL ROLE staykit_api`);
    if (organizationId) await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [organizationId]);
    if (options.userId) await tx.query(`SELECT set_config('staykit.user_id', $1, true)`, [options.userId]);
    return fn(tx);
  });
}

/** Asserts that `promise` fails with SQLSTATE `code` (and, when given, a message matching `message`). */
export async function rejectsWith(promise: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    const e = error as { code?: string; message?: string };
    assert.equal(e.code, code, `expected SQLSTATE ${code}, got ${e.code}: ${e.message}`);
    if (message) assert.match(e.message ?? '', message);
    return true;
  });
}

export interface Organization {
  id: string;
  productId: string;
  otherProductId: string;
  bookingId: string;
  capacityGroupId: string;
  serviceId: string;
  contactId: string;
  memberId: string;
  userId: string;
  siteId: string;
  widgetId: string;
  couponId: string;
  webhookId: string;
  taxId: string;
  calendarEventId: string;
}

/**
 * A committed organization with one row in each commonly referenced parent table (as the owner, which bypasses
 * row-level security). Every call makes a new organization.
 */
export async function createOrganization(db: Database, name = 'Test org'): Promise<Organization> {
  const o = {
    id: randomUUID(), productId: randomUUID(), otherProductId: randomUUID(), bookingId: randomUUID(),
    capacityGroupId: randomUUID(), serviceId: randomUUID(), contactId: randomUUID(), memberId: randomUUID(),
    userId: randomUUID(), siteId: randomUUID(), widgetId: randomUUID(), couponId: randomUUID(),
    webhookId: randomUUID(), taxId: randomUUID(), calendarEventId: randomUUID(),
  };
  await db.transaction(async (tx) => {
    await organization(tx, { id: o.id, name });
    const f = fixtures(tx, o.id);
    await f.rows('products', [
      { id: o.productId, name: { default: 'Cabin' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
      { id: o.otherProductId, name: { default: 'Loft' }, rent_period: 'daily', timezone: 'UTC' },
    ]);
    await f.booking({ id: o.bookingId });
    await f.group('Adults', { id: o.capacityGroupId });
    await f.row('services', { id: o.serviceId, name: { default: 'Cleaning' } });
    await f.contact({ id: o.contactId, first_name: 'Ada' });
    await f.row('user_profiles', { user_id: o.userId, name: 'Owner' });
    await f.member({ id: o.memberId, name: 'Bea', user_id: o.userId });
    await f.row('sites', { id: o.siteId, name: 'Site' });
    await f.row('widgets', { id: o.widgetId, name: 'Widget' });
    await f.row('coupons', { id: o.couponId, code: 'WELCOME', definition: { type: 'fixed', value: 500 } });
    await f.webhook({ id: o.webhookId, endpoint: 'https://hooks.example.com/x' });
    await f.row('taxes', { id: o.taxId, name: 'VAT', percentage: 9 });
    await f.event(o.productId, {
      id: o.calendarEventId, booking_id: o.bookingId, start_date: '2030-06-01', end_date: '2030-06-05', status: 'TENTATIVE',
    });
  });
  return o;
}
