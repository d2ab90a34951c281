/**
 * The api_requests log does not lose entries when the database briefly refuses them: a refused batch is written
 * on a later try, also when the refusal happens during a graceful shutdown; what waits is bounded, and what is
 * dropped beyond the bound is counted. The refusal is a trigger on api_requests, removed by the test once the
 * failure has been logged (the event the test waits on).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { RequestLog, type RequestLogEntry } from '../../src/http/request-log.js';
import { forEachBackend, type BackendContext } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { waitFor } from '../webhooks/support.js';

const FAILED = 'writing api_requests failed';

async function refuseRequestLog(ctx: BackendContext): Promise<void> {
  await ctx.db.exec(`
    CREATE OR REPLACE FUNCTION staykit_internal.test_refuse_api_requests() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'api_requests refused for the test'; END $$;
    CREATE TRIGGER test_refuse_api_requests BEFORE INSERT ON api.api_requests
      FOR EACH STATEMENT EXECUTE FUNCTION staykit_internal.test_refuse_api_requests();`);
}

async function acceptRequestLog(ctx: BackendContext): Promise<void> {
  await ctx.db.exec('DROP TRIGGER test_refuse_api_requests ON api.api_requests');
}

async function loggedRequest(ctx: BackendContext, requestId: string): Promise<{ status: number } | undefined> {
  const { rows } = await ctx.db.query<{ status: number }>('SELECT status FROM api.api_requests WHERE request_id = $1', [requestId]);
  return rows[0];
}

forEachBackend('request log retries', (ctx) => {
  let org: TestOrganization;
  const logs = new EventEmitter();
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.emit('line', JSON.parse(line) as { msg?: string });
      done();
    },
  });
  /** Resolves on the next log line whose message starts with `message`. */
  const logged = (message: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${message}" log line within 20 s`)), 20_000);
      const onLine = (line: { msg?: string }) => {
        if (!line.msg?.startsWith(message)) return;
        clearTimeout(timer);
        logs.off('line', onLine);
        resolve();
      };
      logs.on('line', onLine);
    });
  const startApp = () => buildApp({ db: ctx.db, logStream, logLevel: 'info' });

  before(async () => {
    org = await createOrganization(ctx.db, 'Logged');
  });

  it('writes a batch the database refused once on a later try', async () => {
    const app = await startApp();
    try {
      await refuseRequestLog(ctx);
      const failed = logged(FAILED);
      const response = await app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(org.key) });
      assert.equal(response.statusCode, 200);
      await failed;
      await acceptRequestLog(ctx);
      const requestId = String(response.headers['x-request-id']);
      const row = await waitFor(() => loggedRequest(ctx, requestId), 30_000, 'the entry written on a later try');
      assert.equal(row.status, 200);
    } finally {
      await app.close();
    }
  });

  it('a graceful shutdown keeps trying to write what is buffered', async () => {
    const app: FastifyInstance = await startApp();
    await refuseRequestLog(ctx);
    const response = await app.inject({ method: 'GET', url: '/v1/contacts?select=id', headers: bearer(org.key) });
    assert.equal(response.statusCode, 200);
    const failed = logged(FAILED);
    const closed = app.close();
    await failed;
    await acceptRequestLog(ctx);
    await closed;
    const row = await loggedRequest(ctx, String(response.headers['x-request-id']));
    assert.equal(row?.status, 200, 'written before close() resolved');
  });

  it('exposes the count of dropped entries as a metric', async () => {
    const app = await startApp();
    try {
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      assert.match(metrics.body, /^staykit_request_log_dropped_total 0$/m);
    } finally {
      await app.close();
    }
  });

  it('beyond its bound drops the oldest entries, counts and logs them, and writes the rest once it can', async () => {
    const dropped: number[] = [];
    const log = new RequestLog(ctx.db, {
      logger: { info() {}, warn() {}, error: (_fields, message) => logs.emit('line', { msg: message }) },
      onDropped: (count) => dropped.push(count),
      maxBuffered: 3,
      intervalMs: 50,
      closeTimeoutMs: 10_000,
    });
    const { rows: [key] } = await ctx.db.query<{ id: string }>('SELECT id FROM staykit_internal.api_keys WHERE organization_id = $1', [org.id]);
    const entry = (n: number): RequestLogEntry => ({
      organization_id: org.id, api_key_id: key!.id, method: 'GET', path: `/bounded/${n}`, status: 200, duration_ms: 1,
      request_id: `bounded-${n}`, created_at: new Date().toISOString(),
    });
    await refuseRequestLog(ctx);
    const failed = logged(FAILED);
    const droppedLogged = logged('api_requests entries dropped');
    for (let n = 1; n <= 5; n += 1) log.record(entry(n));
    assert.deepEqual(dropped, [1, 1], 'the two oldest are dropped at once');
    await Promise.all([failed, droppedLogged]);
    await acceptRequestLog(ctx);
    await log.close();
    const { rows } = await ctx.db.query<{ path: string }>(`SELECT path FROM api.api_requests WHERE path LIKE '/bounded/%' ORDER BY path`);
    assert.deepEqual(rows.map((row) => row.path), ['/bounded/3', '/bounded/4', '/bounded/5']);
  });

  after(() => logStream.destroy());
});
