/**
 * `staykit gen types typescript` as a Supabase user meets it: the generated `Database` type, passed to
 * @supabase/postgrest-js, makes valid queries compile and wrong ones (a column that does not exist, a value of the
 * wrong type, an insert without a required field) fail to compile; and the same typed program runs against a
 * listening server. The types are generated at test time from the freshly migrated database, so they follow every
 * migration without a committed copy to keep up to date.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { seedDemoOrganization, type SeededOrganization } from '../../src/seed/demo-organization.js';
import { databaseTypes } from '../../src/typegen/load.js';
import { scratchProgram, type ScratchProgram } from '../clients/typescript-program.js';

/** Queries that must compile, and that the test then runs: what they return is checked below. */
const VALID = `
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database, Enums, Tables, TablesInsert } from './database.types.js';

export async function typedQueries(url: string, key: string) {
  const client = new PostgrestClient<Database>(url, { headers: { Authorization: \`Bearer \${key}\` } });
  const products = await client.from('products').select('id, name, rent_period, product_configurations(name, order)').order('created_at');
  if (products.error) throw new Error(products.error.message);
  const period: Enums<'products_rent_period'> = products.data[0]!.rent_period;
  const configurationNames = products.data.flatMap((product) => product.product_configurations.map((configuration) => configuration.name));

  const confirmed = await client.from('calendar_events').select('start_date, status').eq('status', 'CONFIRMED').limit(3);
  if (confirmed.error) throw new Error(confirmed.error.message);
  const statuses: Tables<'calendar_events'>['status'][] = confirmed.data.map((event) => event.status);

  const coupon: TablesInsert<'coupons'> = { code: 'TYPED10', definition: { type: 'percentage', value: 10 } };
  const created = await client.from('coupons').insert(coupon).select('id, code, quota').single();
  if (created.error) throw new Error(created.error.message);
  const quota: number | null = created.data.quota;
  const updated = await client.from('coupons').update({ quota: 3 }).eq('id', created.data.id).select('quota').single();
  if (updated.error) throw new Error(updated.error.message);
  return { period, configurationNames, statuses, code: created.data.code, quota, updatedQuota: updated.data.quota };
}
`;

/** Each marked line must be a compile error: an unused \`@ts-expect-error\` is itself one, so the program fails. */
const INVALID = `
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './database.types.js';

export async function mistakes(client: PostgrestClient<Database>) {
  // @ts-expect-error a table that does not exist
  await client.from('booking').select('id');
  const typo = await client.from('products').select('id, nmae');
  // @ts-expect-error a column that does not exist reads as a SelectQueryError, not as data
  const name: string = typo.data![0]!.nmae;
  // @ts-expect-error a value outside a CHECK list
  await client.from('calendar_events').select('id').eq('status', 'CONFIRMD');
  // @ts-expect-error a number where the column is text
  await client.from('coupons').update({ code: 10 }).eq('id', 'x');
  // @ts-expect-error an insert without the required \`definition\`
  await client.from('coupons').insert({ code: 'NODEF' });
  // @ts-expect-error organization_id comes from the API key, never from the body
  await client.from('coupons').insert({ code: 'X', definition: {}, organization_id: 'x' });
  // @ts-expect-error reading a column the select did not ask for
  const code: string = (await client.from('coupons').select('id').single()).data!.code;
  return [name, code];
}
`;

forEachBackend('gen types typescript: the Database type for @supabase/postgrest-js', (ctx) => {
  let scratch: ScratchProgram;
  let app: FastifyInstance;
  let demo: SeededOrganization;
  let address: string;

  before(async () => {
    scratch = await scratchProgram('staykit-typegen');
    await scratch.write('database.types.ts', await databaseTypes(ctx.db));
    demo = await seedDemoOrganization(ctx.db);
    app = await startApp(ctx.db);
    address = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    await scratch.remove();
  });

  it('valid queries compile, and each mistake is a compile error', async () => {
    assert.deepEqual(scratch.compile([await scratch.write('valid.ts', VALID), await scratch.write('invalid.ts', INVALID)]), []);
  });

  it('without the expected errors the mistakes program does not compile (the check above can fail)', async () => {
    const errors = scratch.compile([await scratch.write('unmarked.ts', INVALID.replace(/^\s*\/\/ @ts-expect-error.*$/gm, ''))]);
    assert.equal(errors.length, INVALID.match(/@ts-expect-error/g)!.length, errors.join('\n'));
  });

  it('the typed program runs against the server and gets what its types say', async () => {
    const { typedQueries } = await import(await scratch.write('valid.ts', VALID)) as { typedQueries: (url: string, key: string) => Promise<Record<string, unknown>> };
    const result = await typedQueries(`${address}/v1`, demo.api_key);
    assert.ok(['daily', 'nightly'].includes(result.period as string));
    assert.ok((result.configurationNames as unknown[]).length > 0);
    assert.ok((result.statuses as string[]).every((status) => status === 'CONFIRMED'));
    assert.deepEqual([result.code, result.quota, result.updatedQuota], ['TYPED10', null, 3]);
  });
});
