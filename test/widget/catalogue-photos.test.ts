/**
 * A custom front-end reads a unit's photos from the public catalogue (`GET /v1/widget`, docs/widget.md#photos), on
 * both backends: photos uploaded through POST /v1/media and listed on the unit come in the unit's order with their
 * alt texts per language, the cover marked (the one marked, else the first), each with its resized copies (AVIF,
 * WebP and JPEG at the widths the upload allows) as absolute URLs at the address the catalogue was asked at, which
 * serve the pictures; every answer as the OpenAPI document describes it. A unit without photos has none.
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
import { drawDemoPhotos } from '../../src/seed/demo-photos.js';
import type { CatalogueImage } from '../../src/widget/bodies.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';
import { answerChecker, type AnswerChecker } from '../openapi/answers.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

const STAYKIT = 'http://book.seaside.example:8443';

forEachBackend('photos in the widget catalogue', (ctx) => {
  let compute: ComputePool;
  let folder: string;
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let key: string;
  let answers: AnswerChecker;
  const media: string[] = [];

  before(async () => {
    // Resizing a photo takes about a second of a core; on a machine loaded by other test files it may take many.
    compute = new ComputePool(computePoolOptions(loadConfig({})));
    folder = await mkdtemp(join(tmpdir(), 'staykit-catalogue-media-'));
    app = await startApp(ctx.db, { compute, mediaStore: new FolderStore(folder) });
    org = await widgetOrganization(ctx.db, 'Photo Rentals');
    key = await publishableKeyFor(app, org.secretKey, org.widget);
    answers = await answerChecker(app);
    for (const photo of (await drawDemoPhotos('dunes')).slice(0, 2)) {
      const uploaded = await app.inject({ method: 'POST', url: '/v1/media', headers: { ...bearer(org.secretKey), 'content-type': 'image/jpeg' }, payload: photo });
      assert.equal(uploaded.statusCode, 201, uploaded.body);
      media.push(uploaded.json<{ id: string }>().id);
    }
  });
  after(async () => {
    await app.close();
    await compute.close();
    await rm(folder, { recursive: true, force: true });
  });

  const setImages = async (images: unknown[]) => {
    const response = await app.inject({
      method: 'PATCH', url: `/v1/products?id=eq.${org.listed}`, headers: bearer(org.secretKey), payload: { images },
    });
    assert.equal(response.statusCode, 204, response.body);
  };
  const catalogueImages = async (): Promise<CatalogueImage[]> => {
    const response = await app.inject({
      method: 'GET', url: '/v1/widget', headers: { ...bearer(key), origin: ALLOWED_ORIGIN, host: new URL(STAYKIT).host },
    });
    assert.equal(response.statusCode, 200, response.body);
    // As the OpenAPI document describes it, field for field (what clients' generated types expect).
    answers.check(response, 'get', '/widget');
    const product = response.json<{ products: { id: string; images: CatalogueImage[] }[] }>().products.find((p) => p.id === org.listed)!;
    return product.images;
  };

  it('a unit without photos has none', async () => {
    assert.deepEqual(await catalogueImages(), []);
  });

  it('lists the photos in order with their alt texts, the marked cover and every resized copy at an absolute URL that serves it', async () => {
    const living = { en: 'The living room', nl: 'De woonkamer', de: 'Das Wohnzimmer' };
    await setImages([{ media_id: media[0], alt: living }, { media_id: media[1], alt: { default: 'The bedroom' }, cover: true }]);
    const images = await catalogueImages();
    assert.deepEqual(images.map((image) => [image.media_id, image.cover, image.alt]), [[media[0], false, living], [media[1], true, { default: 'The bedroom' }]]);
    for (const image of images) {
      assert.deepEqual([image.width, image.height], [1600, 1067]);
      assert.match(image.dominant_color, /^#[0-9a-f]{6}$/);
      assert.match(image.url, new RegExp(`^${STAYKIT.replace(/\./g, '\\.')}/media/[0-9a-f]{32}/1600\\.jpeg$`));
      assert.deepEqual(image.variants.map((v) => `${v.width}x${v.height}.${v.format}`).sort(), [
        '1200x800.avif', '1200x800.jpeg', '1200x800.webp', '1600x1067.avif', '1600x1067.jpeg', '1600x1067.webp',
        '400x267.avif', '400x267.jpeg', '400x267.webp', '800x534.avif', '800x534.jpeg', '800x534.webp',
      ]);
      for (const variant of image.variants) {
        const url = new URL(variant.url);
        assert.equal(url.origin, STAYKIT);
        const served = await app.inject({ method: 'GET', url: url.pathname });
        assert.equal(served.statusCode, 200, variant.url);
        assert.equal((await sharp(served.rawPayload).metadata()).width, variant.width);
      }
    }
  });

  it('without a marked cover the first photo is the cover', async () => {
    await setImages([{ media_id: media[1] }, { media_id: media[0] }]);
    const images = await catalogueImages();
    assert.deepEqual(images.map((image) => [image.media_id, image.cover, image.alt]), [[media[1], true, {}], [media[0], false, {}]]);
  });
});
