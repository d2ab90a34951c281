/**
 * Shared helpers of the schema tests: a rolled-back transaction, the API role's request context, a small
 * organization fixture, and an assertion on SQLSTATE codes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Database, Transaction } from '../../src/db/types.js';

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
    await tx.query(`INSERT INTO api.organizations (id, name) VALUES ($1, $2)`, [o.id, name]);
    await tx.query(
      `INSERT INTO api.products (id, organization_id, name, rent_period, timezone)
       VALUES ($1, $3, '{"default": "Cabin"}', 'nightly', 'Europe/Amsterdam'),
              ($2, $3, '{"default": "Loft"}', 'daily', 'UTC')`,
      [o.productId, o.otherProductId, o.id],
    );
    await tx.query(`INSERT INTO api.bookings (id, organization_id) VALUES ($1, $2)`, [o.bookingId, o.id]);
    await tx.query(`INSERT INTO api.capacity_groups (id, organization_id, name) VALUES ($1, $2, '{"default": "Adults"}')`,
      [o.capacityGroupId, o.id]);
    await tx.query(`INSERT INTO api.services (id, organization_id, name) VALUES ($1, $2, '{"default": "Cleaning"}')`,
      [o.serviceId, o.id]);
    await tx.query(`INSERT INTO api.contacts (id, organization_id, first_name) VALUES ($1, $2, 'Ada')`, [o.contactId, o.id]);
    await tx.query(`INSERT INTO api.user_profiles (organization_id, user_id, name) VALUES ($1, $2, 'Owner')`, [o.id, o.userId]);
    await tx.query(`INSERT INTO api.members (id, organization_id, name, user_id) VALUES ($1, $2, 'Bea', $3)`,
      [o.memberId, o.id, o.userId]);
    await tx.query(`INSERT INTO api.sites (id, organization_id, name) VALUES ($1, $2, 'Site')`, [o.siteId, o.id]);
    await tx.query(`INSERT INTO api.widgets (id, organization_id, name) VALUES ($1, $2, 'Widget')`, [o.widgetId, o.id]);
    await tx.query(
      `INSERT INTO api.coupons (id, organization_id, code, definition) VALUES ($1, $2, 'WELCOME', '{"type": "fixed", "value": 500}')`,
      [o.couponId, o.id],
    );
    await tx.query(
      `INSERT INTO api.webhooks (id, organization_id, endpoint, events) VALUES ($1, $2, 'https://hooks.example.com/x', '{*}')`,
      [o.webhookId, o.id],
    );
    await tx.query(`INSERT INTO api.taxes (id, organization_id, name, percentage) VALUES ($1, $2, 'VAT', 9)`, [o.taxId, o.id]);
    await tx.query(
      `INSERT INTO api.calendar_events (id, organization_id, product_id, booking_id, start_date, end_date, type, status)
       VALUES ($1, $2, $3, $4, '2030-06-01', '2030-06-05', 'booking', 'TENTATIVE')`,
      [o.calendarEventId, o.id, o.productId, o.bookingId],
    );
  });
  return o;
}
