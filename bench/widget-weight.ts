/**
 * The booking widget's page weight with photos (issue 34): the bytes a visitor's browser transfers to show a unit
 * with its cover photo — the widget's script (its styles are inside it), the API's answers (CORS preflights, the
 * catalogue, the calendar's availability) and the photo copy the browser picks from the `srcset`s — at a phone's
 * and a desktop's viewport, in headless Chromium (playwright-core), each load in a fresh context (empty cache), on a
 * page served from another origin as a property manager's site would. Bytes as transferred: headers and body as
 * sent (compressed when the server compresses), from the browser's own accounting (`request.sizes()`).
 *
 * Set-up, through the API as a manager would with the benchmark tenant's key: two photos uploaded (POST /v1/media),
 * listed on the tenant's first unit with the outside view as cover, a widget for the page's
 * origin listing that unit, and a publishable key.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { drawDemoPhotos } from '../src/seed/demo-photos.js';
import { CHROMIUM, CHROMIUM_ARGS } from './reference-page.js';

/** The viewports measured: a phone (at 1x and at the 3x of current phones) and a desktop. */
export const VIEWPORTS = [
  { name: 'phone 390 px, 1x', width: 390, height: 844, scale: 1, mobile: true },
  { name: 'phone 390 px, 3x', width: 390, height: 844, scale: 3, mobile: true },
  { name: 'desktop 1280 px, 1x', width: 1280, height: 800, scale: 1, mobile: false },
] as const;

export interface WeightRow {
  viewport: string;
  script: number;
  api: number;
  apiRequests: number;
  /** Bodies of the script and the API answers uncompressed: what the browser got once it decompressed them. */
  scriptUncompressed: number;
  apiUncompressed: number;
  photo: number;
  /** The copy the browser picked for the cover, e.g. `800.avif`. */
  photoPicked: string;
  /** Bytes of the other photos the browser fetched meanwhile: `loading="lazy"` defers only images far from the viewport. */
  otherPhotos: number;
  otherPhotosPicked: string[];
  total: number;
}

export interface WidgetWeightResult {
  rows: WeightRow[];
}

type Log = (text: string) => void;

/**
 * A drawing of the demo made to compress like a camera photo: flat colours compress to almost nothing (3.5 KB for a
 * 400-px AVIF), a photo does not, so grain at three scales is laid over it (soft light). 1600 × 1067 px; its 800-px
 * copies come out at about 80 KB as JPEG and 55 KB as AVIF, like a photo of a room.
 */
async function photoLike(drawing: Buffer): Promise<Buffer> {
  const { width, height } = { width: 1600, height: 1067 };
  const grain = (scale: number) => sharp({
    create: { width: Math.round(width / scale), height: Math.round(height / scale), channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 25 } },
  }).png().toBuffer().then((noise) => sharp(noise).resize(width, height, { kernel: 'cubic' }).png().toBuffer());
  const layers = await Promise.all([16, 4, 2].map(grain));
  return sharp(drawing).composite(layers.map((input) => ({ input, blend: 'soft-light' as const }))).jpeg({ quality: 90 }).toBuffer();
}

async function call<T>(base: string, key: string, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method, headers: { authorization: `Bearer ${key}`, 'content-type': contentType, prefer: 'return=representation' },
    body: body === undefined ? undefined : body instanceof Uint8Array ? new Uint8Array(body).buffer : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A site on its own origin embedding the widget; the key is filled in once known. */
async function site(staykit: string): Promise<{ server: Server; origin: string; setKey(key: string): void }> {
  let key = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Holiday homes</title></head><body><main><h1>Holiday homes</h1><script src="${staykit}/widget.js"></script>
<staykit-widget key="${key}"></staykit-widget></main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, setKey: (value) => { key = value; } };
}

/** Sets up the unit, widget and key through the API; the publishable key. */
async function setUp(staykit: string, apiKey: string, productId: string, origin: string): Promise<string> {
  const [outside, living] = await Promise.all((await drawDemoPhotos('harbour')).slice(0, 2).map(photoLike));
  const media: string[] = [];
  for (const photo of [outside!, living!]) media.push((await call<{ id: string }>(staykit, apiKey, 'POST', '/v1/media', photo, 'image/jpeg')).id);
  await call(staykit, apiKey, 'PATCH', `/v1/products?id=eq.${productId}`, {
    images: [{ media_id: media[0], alt: { default: 'The house from outside' }, cover: true }, { media_id: media[1], alt: { default: 'The living room' } }],
  });
  const [widget] = await call<{ id: string }[]>(staykit, apiKey, 'POST', '/v1/widgets', { name: 'Page weight', language: 'en', allowed_origins: [origin] });
  await call(staykit, apiKey, 'POST', '/v1/widget_listings', { widget_id: widget!.id, product_id: productId, order: 1 });
  return (await call<{ key: string }>(staykit, apiKey, 'POST', '/v1/publishable-keys', { widget_id: widget!.id, name: 'bench' })).key;
}

async function measure(browser: Browser, staykit: string, page: string, viewport: (typeof VIEWPORTS)[number]): Promise<WeightRow> {
  const context = await browser.newContext({
    viewport: { width: viewport.width, height: viewport.height }, deviceScaleFactor: viewport.scale, isMobile: viewport.mobile, hasTouch: viewport.mobile,
  });
  try {
    const tab = await context.newPage();
    const finished: Promise<{ url: string; bytes: number; uncompressed: number }>[] = [];
    tab.on('requestfinished', (request) => {
      finished.push((async () => {
        const sizes = await request.sizes();
        const body = new URL(request.url()).pathname.startsWith('/media/') ? Buffer.alloc(0) : await (await request.response())?.body() ?? Buffer.alloc(0);
        return {
          url: request.url(), bytes: sizes.requestHeadersSize + sizes.requestBodySize + sizes.responseHeadersSize + sizes.responseBodySize,
          uncompressed: body.length,
        };
      })());
    });
    await tab.goto(page);
    const widget = tab.locator('staykit-widget');
    await widget.getByRole('heading', { name: 'Choose your dates' }).waitFor({ timeout: 60_000 });
    const picked = await widget.locator('.slide img').first().evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return img.currentSrc;
    });
    await tab.waitForLoadState('networkidle');
    const requests = (await Promise.all(finished)).filter((request) => request.url.startsWith(staykit));
    const sum = (list: { bytes: number }[]) => list.reduce((total, request) => total + request.bytes, 0);
    const uncompressed = (list: { uncompressed: number }[]) => list.reduce((total, request) => total + request.uncompressed, 0);
    const script = requests.filter((request) => new URL(request.url).pathname === '/widget.js');
    const api = requests.filter((request) => new URL(request.url).pathname.startsWith('/v1/'));
    const photos = requests.filter((request) => new URL(request.url).pathname.startsWith('/media/'));
    const cover = photos.filter((request) => request.url === picked);
    const others = photos.filter((request) => request.url !== picked);
    const name = (url: string) => new URL(url).pathname.split('/').pop()!;
    const row = { script: sum(script), api: sum(api), photo: sum(cover), otherPhotos: sum(others) };
    return {
      viewport: viewport.name, ...row, apiRequests: api.length, scriptUncompressed: uncompressed(script), apiUncompressed: uncompressed(api), photoPicked: name(picked),
      otherPhotosPicked: others.map((request) => name(request.url)), total: row.script + row.api + row.photo + row.otherPhotos,
    };
  } finally {
    await context.close();
  }
}

export function widgetWeightWanted(only: string | undefined): boolean {
  return only === undefined || 'widget page weight'.includes(only.toLowerCase());
}

/** The widget page-weight part of a benchmark run: measured, or why not. */
export async function widgetWeightPart(staykit: string, apiKey: string, productId: string, log: Log): Promise<WidgetWeightResult | string> {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} not found (install Chromium, or set STAYKIT_CHROMIUM)`;
  log('  widget page weight with photos in headless Chromium …');
  const page = await site(staykit);
  let browser: Browser | undefined;
  try {
    page.setKey(await setUp(staykit, apiKey, productId, page.origin));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const rows: WeightRow[] = [];
    for (const viewport of VIEWPORTS) rows.push(await measure(browser, staykit, page.origin, viewport));
    log(` ${rows.map((row) => `${row.viewport}: ${Math.round(row.total / 1024)} KiB`).join(', ')}\n`);
    return { rows };
  } catch (error) {
    log(` failed: ${(error as Error).message.split('\n')[0]}\n`);
    return `failed: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await browser?.close();
    page.server.close();
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function renderWidgetWeight(result: WidgetWeightResult | string): string {
  const title = '## Widget page weight with photos';
  if (typeof result === 'string') return ['', title, '', `Not measured: ${result}.`, ''].join('\n');
  return [
    '',
    title,
    '',
    'Bytes transferred (headers and bodies as sent) for the booking widget to show a unit with its cover photo, on a page of another ' +
      'origin, in headless Chromium with an empty cache, until the network is idle: the script (styles included), the API\'s answers ' +
      '(catalogue, a year of availability; CORS preflights are not counted: a few hundred bytes each) and the cover copy the browser ' +
      'picked from the `srcset`s. The unit has two photos (1600 × 1067 px, made to compress like camera photos); the second is `loading="lazy"`, which Chromium fetches anyway when it is ' +
      'as near as the gallery\'s next slide. Staykit compresses the script and the answers (Brotli for Chromium); in brackets their bodies uncompressed.',
    '',
    '| Viewport | widget.js | API answers | cover photo (picked) | second photo | total |',
    '|---|---|---|---|---|---|',
    ...result.rows.map((row) => `| ${row.viewport} | ${kib(row.script)} (${kib(row.scriptUncompressed)}) | ${kib(row.api)} in ${row.apiRequests} (${kib(row.apiUncompressed)}) | `
      + `${kib(row.photo)} (${row.photoPicked}) | ${row.otherPhotosPicked.length === 0 ? 'not fetched' : `${kib(row.otherPhotos)} (${row.otherPhotosPicked.join(', ')})`} | ${kib(row.total)} |`),
    '',
  ].join('\n');
}
