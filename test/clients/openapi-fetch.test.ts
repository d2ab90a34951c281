/**
 * A client generated from the served OpenAPI document, as an integrator makes one: `openapi-typescript` turns
 * `/v1/openapi.json` into `paths`, a small program uses `openapi-fetch` with them to quote a stay, book it and read
 * the booking back; the program must compile against the generated types, and then runs against a listening server.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { startBookingApp } from '../booking/support.js';
import { fixtures } from '../support/fixtures.js';
import { scratchProgram, type ScratchProgram } from './typescript-program.js';

const PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './api.js';

export async function bookAStay(baseUrl: string, key: string, productId: string) {
  const client = createClient<paths, 'application/json'>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const stay = { product_id: productId, interval: { start: '2027-03-10', end: '2027-03-13' } };

  const quote = await client.POST('/quote', { body: stay });
  if (quote.error) throw new Error(\`quote: \${quote.error.code} \${quote.error.message}\`);
  const total: number = quote.data.total;

  const booked = await client.POST('/book', {
    body: { ...stay, contact: { first_name: 'Ana', last_name: 'Silva', email: 'ana@example.com' } },
    params: { header: { 'Idempotency-Key': 'typed-client-1' } },
  });
  if (booked.error) throw new Error(\`book: \${booked.error.code} \${booked.error.message}\`);
  const bookingId: string = booked.data.booking_id;

  const read = await client.GET('/bookings', { params: { query: { id: \`eq.\${bookingId}\`, select: 'id,reference,currency' } } });
  if (read.error) throw new Error(\`read: \${read.error.code} \${read.error.message}\`);
  const bookings: { id: string; reference: string; currency: string }[] = read.data;
  return { total, currency: quote.data.currency, reference: booked.data.reference, bookings };
}
`;

forEachBackend('openapi-typescript + openapi-fetch: quote, book, read the booking', (ctx) => {
  let app: FastifyInstance;
  let scratch: ScratchProgram;
  let address: string;
  let key: string;
  let productId: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    address = await app.listen({ port: 0, host: '127.0.0.1' });
    const org = await createOrganization(ctx.db, 'Typed client');
    key = org.key;
    const f = fixtures(ctx.db, org.id);
    productId = await f.product();
    await f.configuration(productId, { rates: [{ duration: 1, occupancy: 0, rate: 12000 }] });
    scratch = await scratchProgram('staykit-openapi-client');
    // What `npx openapi-typescript http://…/v1/openapi.json --default-non-nullable false -o api.ts` writes, from the
    // document as served. Without that flag openapi-typescript makes every property with a `default` required —
    // also in request bodies, where a default is what the server fills in when the field is left out.
    const document = await (await fetch(`${address}/v1/openapi.json`)).text();
    await scratch.write('api.ts', astToString(await openapiTS(document, { defaultNonNullable: false })));
  });
  after(async () => {
    await app.close();
    await scratch?.remove();
  });

  it('the program compiles against the generated types (JSON responses), and a misuse does not', async () => {
    const program = await scratch.write('flow.ts', PROGRAM);
    assert.deepEqual(scratch.compile([program]), []);
    const misuse = await scratch.write('misuse.ts', PROGRAM.replace("product_id: productId", 'product: productId'));
    assert.match(scratch.compile([misuse]).join('\n'), /product_id/);
  });

  it('quotes, books and reads the booking through the generated client', async () => {
    const { bookAStay } = await import(await scratch.write('flow.ts', PROGRAM)) as {
      bookAStay: (baseUrl: string, key: string, productId: string) => Promise<{ total: number; currency: string; reference: string; bookings: { id: string; reference: string }[] }>;
    };
    const result = await bookAStay(`${address}/v1`, key, productId);
    assert.equal(result.total, 3 * 12000);
    assert.equal(result.bookings.length, 1);
    assert.equal(result.bookings[0]!.reference, result.reference);
  });
});
