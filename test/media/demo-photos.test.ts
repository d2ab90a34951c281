/**
 * The demo looks like a real business (issue: units set up without a programmer): each of its units has photos —
 * an outside view as the cover, the living room, the bedroom — uploaded like a manager's, with alt text in English,
 * Dutch and German, served at their URLs; and a description in those three languages.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { ComputePool } from '../../src/compute/pool.js';
import { computePoolOptions } from '../../src/compute/process-pool.js';
import { loadConfig } from '../../src/config.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { seedDemoOrganization } from '../../src/seed/demo-organization.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';

interface Unit {
  name: Record<string, string>;
  description: Record<string, string>;
  images: { media_id: string; alt: Record<string, string>; cover?: boolean }[];
}

forEachBackend('the demo organization\'s photos', (ctx) => {
  let compute: ComputePool;
  let folder: string;
  let app: FastifyInstance;
  let key: string;

  before(async () => {
    compute = new ComputePool(computePoolOptions(loadConfig({})));
    folder = await mkdtemp(join(tmpdir(), 'staykit-demo-media-'));
    const store = new FolderStore(folder);
    key = (await seedDemoOrganization(ctx.db, undefined, { compute, store, timeLimitMs: 60_000 })).api_key;
    app = await startApp(ctx.db, { compute, mediaStore: store });
  });
  after(async () => {
    await app.close();
    await compute.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('every unit shows three photos, the outside view as its cover, each with alt text in three languages', async () => {
    const units = (await app.inject({ method: 'GET', url: '/v1/products?select=name,description,images&order=name', headers: bearer(key) })).json<Unit[]>();
    assert.equal(units.length, 4);
    const media = (await app.inject({ method: 'GET', url: '/v1/media?select=id,url,width,height', headers: bearer(key) }))
      .json<{ id: string; url: string; width: number; height: number }[]>();
    assert.equal(media.length, 12);
    const byId = new Map(media.map((row) => [row.id, row]));
    for (const unit of units) {
      assert.equal(unit.images.length, 3, unit.name.default);
      assert.deepEqual(unit.images.map((image) => image.cover === true), [true, false, false]);
      assert.deepEqual(unit.images.map((image) => image.alt.default), ['The house from outside', 'The living room', 'The bedroom']);
      for (const image of unit.images) assert.deepEqual(Object.keys(image.alt).sort(), ['de', 'default', 'nl']);
      for (const language of ['default', 'nl', 'de']) assert.ok(unit.description[language]!.length > 80, `${unit.name.default} has a ${language} description`);
      const cover = byId.get(unit.images[0]!.media_id)!;
      assert.deepEqual([cover.width, cover.height], [1600, 1067]);
      const served = await app.inject({ method: 'GET', url: cover.url });
      assert.equal(served.statusCode, 200);
      assert.equal((await sharp(served.rawPayload).metadata()).width, 1600);
    }
    assert.equal(new Set(media.map((row) => row.url)).size, 12, 'twelve different pictures');
  });

  it("the guest's booking page shows the unit's cover photo, its alt text in the guest's language, in the sizes a browser picks from", async () => {
    const { rows } = await ctx.db.query<{ secret: string; language: string; name: string }>(
      `SELECT b.secret, b.language, p.name ->> 'default' AS name FROM api.bookings AS b
       JOIN api.calendar_events AS e ON e.booking_id = b.id AND e.organization_id = b.organization_id
       JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
       WHERE p.name ->> 'default' = 'Harbour Apartment' LIMIT 1`);
    const booking = rows[0]!;
    const page = await app.inject({ method: 'GET', url: `/g/${booking.secret}`, headers: { 'accept-language': 'nl' } });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-security-policy']), /img-src 'self'/);
    const img = /<img src="([^"]+)" srcset="([^"]+)"[^>]* alt="([^"]*)"/.exec(page.body);
    assert.ok(img, 'the page has the cover photo');
    const [, src, jpegs, alt] = img;
    assert.equal(alt, booking.language.startsWith('nl') ? 'Het huis van buiten' : 'The house from outside');
    assert.deepEqual(jpegs!.split(', ').map((entry) => entry.split(' ')[1]), ['400w', '800w', '1200w', '1600w']);
    assert.match(page.body, /<source type="image\/avif" srcset="\/media\/[0-9a-f]{32}\/400\.avif 400w/);
    const photo = await app.inject({ method: 'GET', url: src! });
    assert.deepEqual([photo.statusCode, photo.headers['content-type']], [200, 'image/jpeg']);
  });
});
