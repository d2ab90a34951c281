/**
 * Uploading a unit's photos (POST /v1/media, docs/media.md), as a manager's browser or an integration would: each
 * accepted format comes back as resized variants served with a year-long cache, upright and without EXIF location;
 * what is not an image, too big or a decompression bomb is refused with a clear error; media stay within their
 * organization; a photo removed from its last unit loses its files. The same answers from the data folder and from
 * an S3 bucket (a real S3-speaking server).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp, { type Sharp } from 'sharp';
import { ComputePool } from '../../src/compute/pool.js';
import { computePoolOptions } from '../../src/compute/process-pool.js';
import { loadConfig } from '../../src/config.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { parseS3Url } from '../../src/config.js';
import { S3Store } from '../../src/media/s3-store.js';
import type { MediaStore } from '../../src/media/store.js';
import { sweepMedia } from '../../src/media/sweep.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';

const MAX_BYTES = 4 * 1024 * 1024;
const PER_ORGANIZATION = 12;
const HEIC = readFileSync(new URL('./fixtures/gradient.heic', import.meta.url));

interface Variant {
  width: number;
  height: number;
  format: string;
  bytes: number;
  url: string;
}

interface Media {
  id: string;
  url: string;
  width: number;
  height: number;
  content_type: string;
  filename: string | null;
  variants: Variant[];
  dominant_color: string;
}

/** A photo-like test picture: a gradient (compresses like a photo, unlike a flat colour). */
function gradient(width: number, height: number, channels: 3 | 4 = 3): Sharp {
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = 90;
      if (channels === 4) pixels[at + 3] = x < width / 2 ? 0 : 255;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

/** A JPEG as a phone takes it: landscape pixels with an EXIF orientation that turns it upright, and a GPS position. */
async function phoneJpeg(): Promise<Buffer> {
  return gradient(2400, 1800).jpeg({ quality: 85 }).withExif({
    IFD0: { Make: 'TestPhone' },
    IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 0/1' },
  }).withMetadata({ orientation: 6 }).toBuffer();
}

/** Whether EXIF data (little-endian, as sharp writes it) points to a GPS block: tag 0x8825. */
function hasGpsBlock(exif: Buffer | undefined): boolean {
  return exif !== undefined && exif.includes(Buffer.from([0x25, 0x88]));
}

function multipart(fields: { name: string; filename?: string; type?: string; data: Buffer | string }[]): { body: Buffer; contentType: string } {
  const boundary = '----staykit-test-boundary';
  const parts = fields.map((field) => Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field.name}"${field.filename ? `; filename="${field.filename}"` : ''}\r\n`
      + (field.type ? `Content-Type: ${field.type}\r\n` : '') + '\r\n'),
    Buffer.isBuffer(field.data) ? field.data : Buffer.from(field.data),
    Buffer.from('\r\n'),
  ]));
  return { body: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

forEachBackend('media uploads', (ctx) => {
  let compute: ComputePool;
  let s3: S3TestServer;
  let folder: string;

  before(async () => {
    compute = new ComputePool(computePoolOptions(loadConfig({})));
    s3 = await startS3Server();
    folder = await mkdtemp(join(tmpdir(), 'staykit-media-'));
  });
  after(async () => {
    await compute.close();
    await s3.close();
    await rm(folder, { recursive: true, force: true });
  });

  const stores: [string, () => MediaStore][] = [
    ['the data folder', () => new FolderStore(folder)],
    ['an S3 bucket', () => new S3Store(parseS3Url(s3.url))],
  ];

  for (const [storeName, openStore] of stores) {
    describe(`stored in ${storeName}`, () => {
      let app: FastifyInstance;
      let store: MediaStore;
      let org: TestOrganization;
      let other: TestOrganization;

      before(async () => {
        store = openStore();
        const config = loadConfig({ STAYKIT_MEDIA_MAX_BYTES: String(MAX_BYTES), STAYKIT_MEDIA_PER_ORGANIZATION: String(PER_ORGANIZATION) });
        app = await startApp(ctx.db, { config, compute, mediaStore: store });
        org = await createOrganization(ctx.db, `Photos ${storeName}`);
        other = await createOrganization(ctx.db, `Other ${storeName}`);
      });
      after(async () => {
        await app.close();
      });

      async function upload(key: string, body: Buffer, contentType: string) {
        return app.inject({ method: 'POST', url: '/v1/media', headers: { ...bearer(key), 'content-type': contentType }, payload: body });
      }

      async function uploaded(body: Buffer, contentType = 'image/jpeg', owner = org): Promise<Media> {
        const response = await upload(owner.key, body, contentType);
        assert.equal(response.statusCode, 201, response.body);
        return response.json<Media>();
      }

      async function served(url: string) {
        const response = await app.inject({ method: 'GET', url });
        return { response, bytes: response.rawPayload };
      }

      async function createProduct(owner = org): Promise<string> {
        const response = await app.inject({
          method: 'POST', url: '/v1/create-product', headers: bearer(owner.key),
          payload: { name: { default: 'Dune Cottage' }, rent_period: 'nightly', timezone: 'Europe/Amsterdam' },
        });
        assert.equal(response.statusCode, 201, response.body);
        return response.json<{ product_id?: string; id?: string }>().product_id ?? response.json<{ id: string }>().id;
      }

      async function setImages(productId: string, images: unknown, owner = org) {
        return app.inject({
          method: 'PATCH', url: `/v1/products?id=eq.${productId}`, headers: { ...bearer(owner.key), prefer: 'return=representation' },
          payload: { images },
        });
      }

      it("a phone's JPEG comes back upright in four widths and three formats, each served with a year's cache and no EXIF location", async () => {
        const original = await phoneJpeg();
        const metadata = await sharp(original).metadata();
        assert.ok(hasGpsBlock(metadata.exif) && metadata.orientation === 6, 'the test photo carries a GPS position and an orientation');
        const media = await uploaded(original);
        assert.equal(media.content_type, 'image/jpeg');
        // 2400×1800 turned upright by its orientation is 1800×2400: the largest variant 1600 wide.
        assert.deepEqual([media.width, media.height], [1600, 2133]);
        assert.deepEqual(media.variants.map((variant) => `${variant.width}x${variant.height} ${variant.format}`).sort(), [
          '1200x1600 avif', '1200x1600 jpeg', '1200x1600 webp', '1600x2133 avif', '1600x2133 jpeg', '1600x2133 webp',
          '400x533 avif', '400x533 jpeg', '400x533 webp', '800x1067 avif', '800x1067 jpeg', '800x1067 webp',
        ]);
        assert.match(media.dominant_color, /^#[0-9a-f]{6}$/);
        assert.equal(media.url, media.variants.find((variant) => variant.width === 1600 && variant.format === 'jpeg')!.url);
        for (const variant of media.variants) {
          const { response, bytes } = await served(variant.url);
          assert.equal(response.statusCode, 200, variant.url);
          assert.equal(response.headers['content-type'], `image/${variant.format}`);
          assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
          assert.equal(bytes.length, variant.bytes);
          const metadata = await sharp(bytes).metadata();
          assert.deepEqual([metadata.width, metadata.height], [variant.width, variant.height], variant.url);
          assert.equal(metadata.exif, undefined, `${variant.url} carries no EXIF`);
          assert.equal(metadata.orientation, undefined);
        }
      });

      it('PNG (transparency on white in the JPEG), WebP, AVIF and HEIC from an iPhone are accepted; none is made larger than it is', async () => {
        const png = await uploaded(await gradient(500, 400, 4).png().toBuffer(), 'image/png');
        assert.equal(png.content_type, 'image/png');
        assert.deepEqual([...new Set(png.variants.map((variant) => variant.width))].sort(), [400, 500]);
        const jpeg = await served(png.variants.find((variant) => variant.width === 500 && variant.format === 'jpeg')!.url);
        const { data } = await sharp(jpeg.bytes).raw().toBuffer({ resolveWithObject: true });
        assert.ok(data[0]! > 240 && data[1]! > 240 && data[2]! > 240, 'the transparent left edge is white');

        const webp = await uploaded(await gradient(1000, 500).webp().toBuffer(), 'image/webp');
        assert.deepEqual([webp.content_type, webp.width, webp.height], ['image/webp', 1000, 500]);
        const avif = await uploaded(await gradient(300, 200).avif().toBuffer(), 'image/avif');
        assert.deepEqual([avif.content_type, avif.width, avif.height, avif.variants.length], ['image/avif', 300, 200, 3]);
        const heic = await uploaded(HEIC, 'image/heic');
        assert.deepEqual([heic.content_type, heic.width, heic.height], ['image/heic', 640, 480]);
        const { bytes } = await served(heic.url);
        assert.equal((await sharp(bytes).metadata()).format, 'jpeg');
      });

      it("a browser's form upload keeps the file's name; the bytes decide the format, not the Content-Type", async () => {
        const form = multipart([{ name: 'file', filename: 'C:\\Users\\anna\\beach house.webp', type: 'image/jpeg', data: await gradient(600, 400).webp().toBuffer() }]);
        const media = await uploaded(form.body, form.contentType);
        assert.deepEqual([media.filename, media.content_type], ['beach house.webp', 'image/webp']);
        const listed = await app.inject({ method: 'GET', url: `/v1/media?id=eq.${media.id}&select=id,filename,width`, headers: bearer(org.key) });
        assert.deepEqual(listed.json(), [{ id: media.id, filename: 'beach house.webp', width: 600 }]);
      });

      it('a renamed text file is 415, as a body and as a form file; an empty body or a form without one file is 400', async () => {
        const text = Buffer.from('These are the house rules, not a photo.\n');
        for (const response of [
          await upload(org.key, text, 'image/jpeg'),
          await upload(org.key, text, 'application/octet-stream'),
          await (async () => { const form = multipart([{ name: 'file', filename: 'rules.jpg', type: 'image/jpeg', data: text }]); return upload(org.key, form.body, form.contentType); })(),
        ]) {
          assert.equal(response.statusCode, 415, response.body);
          assert.equal(response.json().code, 'SK760');
          assert.match(response.json().message, /not an image/);
        }
        const truncated = (await phoneJpeg()).subarray(0, 2000);
        assert.equal((await upload(org.key, truncated, 'image/jpeg')).json().code, 'SK760', 'a truncated JPEG');
        const empty = await upload(org.key, Buffer.alloc(0), 'image/jpeg');
        assert.equal(empty.statusCode, 400, empty.body);
        const png = await gradient(100, 100).png().toBuffer();
        const two = multipart([{ name: 'a', filename: 'a.png', data: png }, { name: 'b', filename: 'b.png', data: png }]);
        const twoAnswer = await upload(org.key, two.body, two.contentType);
        assert.deepEqual([twoAnswer.statusCode, twoAnswer.json().code, twoAnswer.json().message], [400, 'SK767', 'Send one image per request']);
        const field = multipart([{ name: 'caption', data: 'hello' }, { name: 'file', filename: 'a.png', data: png }]);
        assert.deepEqual((await upload(org.key, field.body, field.contentType)).json().code, 'SK767');
        const none = multipart([]);
        assert.equal((await upload(org.key, none.body, none.contentType)).statusCode, 400);
      });

      it('a file over the size limit is 413 and a decompression bomb is refused before it is decoded', async () => {
        const big = Buffer.concat([await gradient(100, 100).jpeg().toBuffer(), Buffer.alloc(MAX_BYTES)]);
        const raw = await upload(org.key, big, 'image/jpeg');
        assert.equal(raw.statusCode, 413, raw.body);
        assert.deepEqual([raw.json().code, raw.json().message], ['SK761', `The image is larger than ${MAX_BYTES} bytes`]);
        const form = multipart([{ name: 'file', filename: 'huge.jpg', data: big }]);
        const formAnswer = await upload(org.key, form.body, form.contentType);
        assert.deepEqual([formAnswer.statusCode, formAnswer.json().code], [413, 'SK761']);

        // 12,000 × 12,000 black pixels: 144 megapixels (432 MB decoded) in a PNG of a few hundred kilobytes.
        const bomb = await sharp({ create: { width: 12_000, height: 12_000, channels: 3, background: '#000' } }).png({ compressionLevel: 9 }).toBuffer();
        assert.ok(bomb.length < MAX_BYTES, `the bomb is small (${bomb.length} bytes)`);
        const refused = await upload(org.key, bomb, 'image/png');
        assert.equal(refused.statusCode, 422, refused.body);
        assert.equal(refused.json().code, 'SK762');
        assert.match(refused.json().message, /144000000 pixels, more than the 100000000 allowed/);
      });

      it("uploading takes media:write; another organization's media cannot be seen, deleted or put on a unit (refused as a missing one)", async () => {
        const productsOnly = await createKey(ctx.db, org.id, ['products:write']);
        const png = await gradient(120, 80).png().toBuffer();
        const refused = await upload(productsOnly, png, 'image/png');
        assert.equal(refused.statusCode, 403, refused.body);
        const mediaWriter = await createKey(ctx.db, org.id, ['media:write']);
        assert.equal((await upload(mediaWriter, png, 'image/png')).statusCode, 201);

        const theirs = await uploaded(png, 'image/png', other);
        const seen = await app.inject({ method: 'GET', url: `/v1/media?id=eq.${theirs.id}`, headers: bearer(org.key) });
        assert.deepEqual(seen.json(), []);
        const deleted = await app.inject({ method: 'DELETE', url: `/v1/media?id=eq.${theirs.id}`, headers: { ...bearer(org.key), prefer: 'return=representation' } });
        assert.deepEqual(deleted.json(), []);

        const product = await createProduct();
        const foreign = await setImages(product, [{ media_id: theirs.id }]);
        const missingId = '0b8c2f9e-2b1a-4f6e-9d41-6a0c1e7b5d23';
        const missing = await setImages(product, [{ media_id: missingId }]);
        assert.equal(foreign.statusCode, 404, foreign.body);
        assert.deepEqual([foreign.json().code, foreign.json().message], ['SK766', `Media ${theirs.id} not found`]);
        assert.deepEqual([missing.statusCode, missing.json().code, missing.json().message], [404, 'SK766', `Media ${missingId} not found`]);
      });

      it("a unit's images are an ordered list of the organization's media with alt text per language and one cover", async () => {
        const first = await uploaded(await gradient(900, 600).jpeg().toBuffer());
        const second = await uploaded(await gradient(600, 900).jpeg().toBuffer());
        const product = await createProduct();
        const images = [{ media_id: second.id, alt: { en: 'The living room', nl: 'De woonkamer' }, cover: true }, { media_id: first.id }];
        const saved = await setImages(product, images);
        assert.equal(saved.statusCode, 200, saved.body);
        assert.deepEqual(saved.json()[0].images, images);
        for (const [bad, message] of [
          [[{ media_id: first.id, cover: true }, { media_id: second.id, cover: true }], 'At most one image is the cover'],
          [[{ media_id: first.id }, { media_id: first.id }], `images[1] repeats media ${first.id}`],
          [[{ media_id: first.id, caption: 'x' }], 'images[0] has a field other than media_id, alt and cover'],
          [[{ media_id: first.id, alt: 'The beach' }], 'images[0].alt must map languages to texts of at most 500 characters'],
          [['https://example.com/photo.jpg'], 'images[0] must be an object {media_id, alt, cover}'],
        ] as const) {
          const answer = await setImages(product, bad);
          assert.deepEqual([answer.statusCode, answer.json().code, answer.json().message], [400, 'SK765', message]);
        }
      });

      it('a photo a unit shows cannot be deleted; removed from its last unit it is deleted, and the sweep deletes its files', async () => {
        const kept = await uploaded(await gradient(700, 500).jpeg().toBuffer());
        const shared = await uploaded(await gradient(500, 700).jpeg().toBuffer());
        const cottage = await createProduct();
        const villa = await createProduct();
        assert.equal((await setImages(cottage, [{ media_id: kept.id }, { media_id: shared.id }])).statusCode, 200);
        assert.equal((await setImages(villa, [{ media_id: shared.id }])).statusCode, 200);

        const refused = await app.inject({ method: 'DELETE', url: `/v1/media?id=eq.${kept.id}`, headers: bearer(org.key) });
        assert.equal(refused.statusCode, 409, refused.body);
        assert.equal(refused.json().code, 'SK764');
        assert.match(refused.json().message, new RegExp(`Media ${kept.id} is shown by product ${cottage}`));

        // Removed from the cottage: `kept` is shown nowhere now, `shared` still by the villa.
        assert.equal((await setImages(cottage, [])).statusCode, 200);
        const left = await app.inject({ method: 'GET', url: `/v1/media?id=in.(${kept.id},${shared.id})&select=id`, headers: bearer(org.key) });
        assert.deepEqual(left.json(), [{ id: shared.id }]);
        assert.equal((await served(kept.url)).response.statusCode, 200, 'the files stay until the sweep');
        await sweepMedia(ctx.db, store);
        assert.equal((await served(kept.url)).response.statusCode, 404);
        for (const variant of shared.variants) assert.equal((await served(variant.url)).response.statusCode, 200);

        // Replaced on the villa too: now nothing shows it.
        assert.equal((await setImages(villa, [{ media_id: kept.id }])).statusCode, 404, 'kept is deleted already');
        assert.equal((await setImages(villa, [])).statusCode, 200);
        await sweepMedia(ctx.db, store);
        assert.equal((await served(shared.url)).response.statusCode, 404);
      });

      it('the same picture uploaded again after its deletion is served again (the sweep spares a hash in use)', async () => {
        const picture = await gradient(640, 480).jpeg().toBuffer();
        const first = await uploaded(picture);
        const deleted = await app.inject({ method: 'DELETE', url: `/v1/media?id=eq.${first.id}`, headers: bearer(org.key) });
        assert.equal(deleted.statusCode, 204, deleted.body);
        const again = await uploaded(picture);
        assert.equal(again.url, first.url, 'the same content hash');
        await sweepMedia(ctx.db, store);
        assert.equal((await served(again.url)).response.statusCode, 200);
      });

      it('an organization keeps at most STAYKIT_MEDIA_PER_ORGANIZATION images', async () => {
        const small = await createOrganization(ctx.db, `Small ${storeName}`);
        for (let index = 0; index < PER_ORGANIZATION; index += 1) {
          await uploaded(await gradient(40 + index, 40).png().toBuffer(), 'image/png', small);
        }
        const refused = await upload(small.key, await gradient(100, 40).png().toBuffer(), 'image/png');
        assert.equal(refused.statusCode, 422, refused.body);
        assert.deepEqual([refused.json().code, refused.json().message], ['SK763', `The organization has ${PER_ORGANIZATION} images, the most it may keep`]);
      });

      it('a URL that names no file is 404, and one that tries to leave the store is refused', async () => {
        for (const url of ['/media/0123456789abcdef0123456789abcdef/400.jpeg', '/media/..%2F..%2Fetc/passwd', '/media/0123456789abcdef0123456789abcdef/400.svg']) {
          const response = await app.inject({ method: 'GET', url });
          assert.equal(response.statusCode, 404, url);
        }
      });
    });
  }
});
