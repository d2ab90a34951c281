/**
 * Values and logs the database keeps by itself: soft-deleted coupons and reusable codes, booking_updates on every
 * update, updated_at moving, generated references and secrets (and their rotation by setting them to null).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, it } from 'node:test';
import { forEachBackend } from '../support/databases.js';
import { fixtures, type Row } from '../support/fixtures.js';
import { asApi, createOrganization, rejectsWith, type Organization } from './helpers.js';

const REFERENCE = /^[ABCDEFGHJKLMNPQRSTUVWXYZ2-9]{3}-[ABCDEFGHJKLMNPQRSTUVWXYZ2-9]{4}$/;

forEachBackend('schema: soft deletes, logs and generated values', (ctx) => {
  let o: Organization;

  before(async () => {
    o = await createOrganization(ctx.db);
  });

  it('soft deletes a coupon on DELETE and lets a new coupon reuse its code', async () => {
    const f = fixtures(ctx.db, o.id);
    const id = await f.coupon({ code: 'SUMMER', definition: { type: 'percentage', value: 15 } });
    // Codes are unique among active coupons, case-insensitively.
    await rejectsWith(f.coupon({ code: 'summer' }), '23505', /coupons_code_unique/);

    await ctx.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [o.id]);
      await tx.query(`DELETE FROM api.coupons WHERE id = $1`, [id]);
    });
    const after = await ctx.db.query<{ deleted_at: string | null }>(`SELECT deleted_at FROM api.coupons WHERE id = $1`, [id]);
    assert.equal(after.rows.length, 1, 'the row stays');
    assert.ok(after.rows[0]!.deleted_at, 'deleted_at is set');
    const deletedAt = after.rows[0]!.deleted_at;

    await sleep(5);
    await ctx.db.query(`DELETE FROM api.coupons WHERE id = $1`, [id]);
    const again = await ctx.db.query<{ deleted_at: string }>(`SELECT deleted_at FROM api.coupons WHERE id = $1`, [id]);
    assert.equal(again.rows[0]!.deleted_at, deletedAt, 'a second DELETE keeps the first deletion time');

    await f.coupon({ code: 'Summer' });
    // The same code stays free in another organization all along.
    const other = await createOrganization(ctx.db, 'other');
    await fixtures(ctx.db, other.id).coupon({ code: 'SUMMER' });
  });

  it('writes one booking_updates row per update of a booking, with the acting user when known', async () => {
    const userId = randomUUID();
    const f = fixtures(ctx.db, o.id);
    await f.row('user_profiles', { user_id: userId, name: 'Fay' });
    const booking = await f.booking();

    await ctx.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true), set_config('staykit.user_id', $2, true)`, [o.id, userId]);
      await tx.query(`UPDATE api.bookings SET silent = true WHERE id = $1`, [booking]);
    });
    await ctx.db.query(`UPDATE api.bookings SET language = 'nl', exchange_rate = 1.1 WHERE id = $1`, [booking]);
    // An unknown user id is not recorded (and does not break the update).
    await ctx.db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('staykit.user_id', $1, true)`, [randomUUID()]);
      await tx.query(`UPDATE api.bookings SET display_currency = 'USD' WHERE id = $1`, [booking]);
    });

    const log = await ctx.db.query<{ user_id: string | null; changed_fields: string[]; changes: Record<string, { old: unknown; new: unknown }> }>(
      `SELECT user_id, changed_fields, changes FROM api.booking_updates WHERE booking_id = $1 ORDER BY created_at`, [booking]);
    assert.equal(log.rows.length, 3);
    assert.equal(log.rows[0]!.user_id, userId);
    assert.deepEqual(log.rows[0]!.changed_fields, ['silent']);
    assert.deepEqual(log.rows[0]!.changes, { silent: { old: false, new: true } });
    assert.equal(log.rows[1]!.user_id, null);
    assert.deepEqual(log.rows[1]!.changed_fields, ['exchange_rate', 'language']);
    assert.deepEqual(log.rows[2]!.changed_fields, ['display_currency']);
    assert.equal(log.rows[2]!.user_id, null);
  });

  it('moves updated_at on update, but not external_calendars.updated_at', async () => {
    const { rows } = await ctx.db.query<{ updated_at: string; created_at: string }>(
      `SELECT updated_at, created_at FROM api.products WHERE id = $1`, [o.productId]);
    await sleep(20);
    await ctx.db.query(`UPDATE api.products SET cooldown_time = 1 WHERE id = $1`, [o.productId]);
    const after = await ctx.db.query<{ updated_at: string; created_at: string }>(
      `SELECT updated_at, created_at FROM api.products WHERE id = $1`, [o.productId]);
    assert.ok(Date.parse(after.rows[0]!.updated_at) > Date.parse(rows[0]!.updated_at), 'updated_at moved');
    assert.equal(after.rows[0]!.created_at, rows[0]!.created_at);

    const cal = await fixtures(ctx.db, o.id).row('external_calendars', { product_id: o.productId });
    assert.equal(cal.updated_at, null);
    await ctx.db.query(`UPDATE api.external_calendars SET name = 'Airbnb' WHERE id = $1`, [cal.id]);
    const calAfter = await ctx.db.query<{ updated_at: string | null }>(
      `SELECT updated_at FROM api.external_calendars WHERE id = $1`, [cal.id]);
    assert.equal(calAfter.rows[0]!.updated_at, null);
  });

  it('generates short unambiguous booking references and 32-character secrets', async () => {
    const f = fixtures(ctx.db, o.id);
    const rows = await f.rows<Row & { reference: string; secret: string }>('bookings', Array.from({ length: 200 }, () => ({})));
    for (const row of rows) {
      assert.match(row.reference, REFERENCE);
      assert.match(row.secret, /^[A-Za-z0-9]{32}$/);
    }
    assert.equal(new Set(rows.map((r) => r.reference)).size, 200);
    assert.equal(new Set(rows.map((r) => r.secret)).size, 200);
    const explicitNull = await f.row<Row & { reference: string; secret: string }>('bookings', { reference: null, secret: null });
    assert.match(explicitNull.reference, REFERENCE);
    assert.match(explicitNull.secret, /^[A-Za-z0-9]{32}$/);
    // A reference is unique per organization.
    await rejectsWith(f.row('bookings', { reference: rows[0]!.reference }), '23505', /bookings_reference_unique/);
  });

  it('rotates secrets when they are set to null, and keeps a supplied one', async () => {
    const before = await ctx.db.query<{ s1: string; s2: string }>(
      `SELECT ical_export_secret AS s1, ical_export_secret_no_details AS s2 FROM api.products WHERE id = $1`, [o.productId]);
    // The API role may write webhooks.signing_secret but never read it back (migration 0052): the test reads it
    // as the owner, inside the same (rolled-back) transaction.
    const rotated = await asApi(ctx.db, o.id, async (tx) => {
      const webhookSecret = async (endpoint: string) => {
        await tx.query('RESET ROLE');
        const { rows } = await tx.query<{ s: string }>('SELECT signing_secret AS s FROM api.webhooks WHERE endpoint = $1', [endpoint]);
        await tx.query('SET LOCAL ROLE staykit_api');
        return rows[0]!.s;
      };
      // The iCal secrets are read and rotated by the role of principals allowed to (migration 0205).
      await tx.query('SET LOCAL ROLE staykit_api_ical_details');
      const p = await tx.query<{ s1: string; s2: string }>(
        `UPDATE api.products SET ical_export_secret = NULL WHERE id = $1
         RETURNING ical_export_secret AS s1, ical_export_secret_no_details AS s2`, [o.productId]);
      await tx.query('SET LOCAL ROLE staykit_api');
      // Raw: as the API role, which may neither name organization_id nor read signing_secret back (RETURNING *).
      await tx.query(`INSERT INTO api.webhooks (endpoint, events) VALUES ('https://hooks.example.com/y', '{bookings.created}')`);
      const w = await webhookSecret('https://hooks.example.com/y');
      await tx.query(`UPDATE api.webhooks SET signing_secret = NULL WHERE endpoint = 'https://hooks.example.com/y'`);
      const w2 = await webhookSecret('https://hooks.example.com/y');
      await tx.query(`INSERT INTO api.webhooks (endpoint, events, signing_secret)
         VALUES ('https://hooks.example.com/z', '{*}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')`);
      const own = await webhookSecret('https://hooks.example.com/z');
      const b = await tx.query<{ s: string }>(`UPDATE api.bookings SET secret = NULL WHERE id = $1 RETURNING secret AS s`, [o.bookingId]);
      return { p: p.rows[0]!, w, w2, own, b: b.rows[0]!.s };
    });
    await rejectsWith(asApi(ctx.db, o.id, (tx) => tx.query('SELECT signing_secret FROM api.webhooks')), '42501', /permission denied/);
    await rejectsWith(asApi(ctx.db, o.id, (tx) => tx.query('UPDATE api.products SET ical_export_secret = NULL WHERE id = $1', [o.productId])),
      '42501', /products\.ical_export_secret/);
    assert.match(rotated.p.s1, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(rotated.p.s1, before.rows[0]!.s1);
    assert.equal(rotated.p.s2, before.rows[0]!.s2, 'the other secret is untouched');
    assert.match(rotated.w, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(rotated.w.slice('whsec_'.length), 'base64').length, 32);
    assert.match(rotated.w2, /^whsec_/);
    assert.notEqual(rotated.w2, rotated.w);
    assert.equal(rotated.own, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    assert.match(rotated.b, /^[A-Za-z0-9]{32}$/);
  });
});
