/**
 * Answers are compressed for clients that ask (src/http/compression.ts): the widget's script and the widget's catalogue
 * come back as Brotli or gzip and decompress to exactly the uncompressed answer; small answers, lists with PostgREST's
 * Content-Range and clients that do not ask get the body as it is; a compressed request body is never inflated; with
 * STAYKIT_COMPRESSION=off nothing is compressed.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization, type WidgetOrganization } from '../widget/support.js';

const DECOMPRESS: Record<string, (bytes: Buffer) => Buffer> = { br: brotliDecompressSync, gzip: gunzipSync };

forEachBackend('compressed answers', (ctx) => {
  let app: FastifyInstance;
  let uncompressing: FastifyInstance;
  let org: WidgetOrganization;
  let publishable: string;

  before(async () => {
    app = await startApp(ctx.db);
    uncompressing = await startApp(ctx.db, { config: loadConfig({ STAYKIT_COMPRESSION: 'off' }) });
    org = await widgetOrganization(ctx.db, 'Compression');
    publishable = await publishableKeyFor(app, org.secretKey, org.widget);
  });
  after(async () => {
    await app.close();
    await uncompressing.close();
  });

  const requests: [string, InjectOptions][] = [
    ["the widget's script", { method: 'GET', url: '/widget.js' }],
    ["the widget's catalogue", { method: 'GET', url: '/v1/widget', headers: { origin: ALLOWED_ORIGIN } }],
    ['the OpenAPI document', { method: 'GET', url: '/v1/openapi.json' }],
  ];
  const withKey = (request: InjectOptions): InjectOptions =>
    request.url === '/v1/widget' ? { ...request, headers: { ...request.headers, ...bearer(publishable) } } : request;

  it('compresses with Brotli or gzip, as the client asks, to exactly the uncompressed answer', async () => {
    for (const [what, request] of requests) {
      const plain = await app.inject(withKey(request));
      assert.equal(plain.statusCode, 200, `${what}: ${plain.body.slice(0, 200)}`);
      assert.equal(plain.headers['content-encoding'], undefined, `${what}: a client that does not ask gets it as it is`);
      assert.ok(plain.rawPayload.length > 1024, `${what} is large enough to be worth compressing`);
      for (const [accept, encoding] of [['br, gzip', 'br'], ['gzip, deflate', 'gzip']] as const) {
        const request_ = withKey({ ...request, headers: { ...request.headers, 'accept-encoding': accept } });
        const compressed = await app.inject(request_);
        assert.equal(compressed.statusCode, 200);
        assert.equal(compressed.headers['content-encoding'], encoding, `${what} for ${accept}`);
        assert.match(String(compressed.headers.vary), /accept-encoding/i, `${what}: caches keep one copy per encoding`);
        assert.equal(compressed.headers['content-type'], plain.headers['content-type']);
        assert.ok(compressed.rawPayload.length < plain.rawPayload.length / 2, `${what}: ${compressed.rawPayload.length} of ${plain.rawPayload.length} bytes`);
        assert.equal(DECOMPRESS[encoding]!(compressed.rawPayload).toString(), plain.body, `${what} decompresses to the same answer`);
      }
    }
  });

  it("sends a list with PostgREST's Content-Range as it is, and a small answer as it is", async () => {
    const list = await app.inject({ method: 'GET', url: '/v1/products', headers: { ...bearer(org.secretKey), 'accept-encoding': 'gzip', prefer: 'count=exact' } });
    assert.equal(list.statusCode, 200);
    assert.ok(list.rawPayload.length > 1024);
    assert.equal(list.headers['content-encoding'], undefined, 'Content-Range counts rows, but HTTP reads it as byte offsets of the uncompressed body');
    assert.equal(list.headers['content-range'], `0-${list.json<unknown[]>().length - 1}/${list.json<unknown[]>().length}`);

    const small = await app.inject({ method: 'GET', url: '/health', headers: { 'accept-encoding': 'br, gzip' } });
    assert.equal(small.statusCode, 200, small.body);
    assert.ok(small.rawPayload.length < 1024);
    assert.equal(small.headers['content-encoding'], undefined, 'under 1 KiB: not worth compressing');
  });

  it('never inflates a compressed request body', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/contacts', payload: gzipSync(JSON.stringify({ first_name: 'Zipped' })),
      headers: { ...bearer(org.secretKey), 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${response.statusCode} ${response.body}`);
    assert.ok(typeof response.json<{ message?: string }>().message === 'string', 'the documented error shape');
    const contacts = await app.inject({ method: 'GET', url: '/v1/contacts?first_name=eq.Zipped', headers: bearer(org.secretKey) });
    assert.deepEqual(contacts.json(), []);
  });

  it('compresses nothing with STAYKIT_COMPRESSION=off (a proxy in front does it)', async () => {
    for (const [what, request] of requests) {
      const response = await uncompressing.inject(withKey({ ...request, headers: { ...request.headers, 'accept-encoding': 'br, gzip' } }));
      assert.equal(response.statusCode, 200, what);
      assert.equal(response.headers['content-encoding'], undefined, what);
    }
  });
});
