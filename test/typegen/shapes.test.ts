/**
 * The parts of the `Database` type Staykit's own `api` schema does not exercise today — views, functions (scalar,
 * set of rows, with defaults), PostgreSQL enum types, composite types, one-to-one relationships — generated for a
 * small schema of their own (as `staykit gen types typescript --schema shop` would) and used through postgrest-js.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { databaseTypes } from '../../src/typegen/load.js';
import { scratchProgram, type ScratchProgram } from '../clients/typescript-program.js';

const SCHEMA = `
CREATE SCHEMA shop;
CREATE TYPE shop.size AS ENUM ('small', 'large');
CREATE TYPE shop.dimensions AS (width integer, height integer);
CREATE TABLE shop.items (
  id serial PRIMARY KEY, name text NOT NULL, size shop.size NOT NULL DEFAULT 'small', tags text[],
  kind text NOT NULL CHECK (kind IN ('tool', 'toy')), price numeric, meta jsonb NOT NULL DEFAULT '{}'
);
CREATE TABLE shop.labels (item_id integer PRIMARY KEY REFERENCES shop.items (id), label text NOT NULL);
CREATE VIEW shop.cheap_items AS SELECT id, name FROM shop.items WHERE price < 10;
CREATE FUNCTION shop.items_by_kind(kind text, max_price numeric DEFAULT 100) RETURNS SETOF shop.items
  LANGUAGE sql STABLE AS $$ SELECT * FROM shop.items WHERE items.kind = $1 AND price <= $2 $$;
CREATE FUNCTION shop.item_count() RETURNS integer LANGUAGE sql STABLE AS $$ SELECT count(*)::int FROM shop.items $$;
CREATE FUNCTION shop.box(d shop.dimensions) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT d.width * d.height $$;
`;

const PROGRAM = `
import { PostgrestClient } from '@supabase/postgrest-js';
import type { Database } from './shop.types.js';

export async function uses(client: PostgrestClient<Database, 'shop'>) {
  const items = await client.from('items').select('id, size, kind, tags, labels(label)');
  const size: 'small' | 'large' = items.data![0]!.size;
  const kind: 'tool' | 'toy' = items.data![0]!.kind;
  const tags: string[] | null = items.data![0]!.tags;
  const cheap = await client.from('cheap_items').select('name');
  const name: string | null = cheap.data![0]!.name;
  const count = await client.rpc('item_count');
  const n: number = count.data!;
  const tools = await client.rpc('items_by_kind', { kind: 'tool' }).select('id, name');
  const ids: number[] = tools.data!.map((item) => item.id);
  await client.from('items').insert({ name: 'Hammer', kind: 'tool' });
  // @ts-expect-error a value outside the enum type
  await client.from('items').insert({ name: 'Saw', kind: 'tool', size: 'medium' });
  // @ts-expect-error a missing required argument
  await client.rpc('items_by_kind', { max_price: 3 });
  // @ts-expect-error a simple view is updatable, with its columns' types
  await client.from('cheap_items').update({ name: 3 }).eq('id', 1);
  const box: Database['shop']['CompositeTypes']['dimensions'] = { width: 1, height: null };
  return [size, kind, tags, name, n, ids, box];
}
`;

forEachBackend('gen types typescript: views, functions, enum and composite types', (ctx) => {
  let scratch: ScratchProgram;
  let source: string;

  before(async () => {
    await ctx.db.exec(SCHEMA);
    source = await databaseTypes(ctx.db, 'shop');
    scratch = await scratchProgram('staykit-typegen-shapes');
    await scratch.write('shop.types.ts', source);
  });
  after(() => scratch?.remove());

  it('writes each part in the shape postgrest-js reads', () => {
    assert.match(source, /"size": "small" \| "large"/);
    assert.match(source, /"items_kind": "tool" \| "toy"/);
    assert.match(source, /"dimensions": \{\n\s+"width": number \| null\n\s+"height": number \| null/);
    assert.match(source, /"items_by_kind": \{\n\s+Args: \{ "kind": string; "max_price"\?: number \}\n\s+Returns: \(Database\["shop"\]\["Tables"\]\["items"\]\["Row"\]\)\[\]/);
    assert.match(source, /"item_count": \{\n\s+Args: Record<PropertyKey, never>\n\s+Returns: number/);
    assert.match(source, /foreignKeyName: "labels_item_id_fkey"\n\s+columns: \["item_id"\]\n\s+isOneToOne: true\n\s+referencedRelation: "items"/);
    assert.match(source, /"id"\?: number/, 'a serial id is optional on insert');
    assert.match(source, /Views: \{\n\s+"cheap_items": \{\n\s+Row: \{[^}]*\}\n\s+Insert: \{[^}]*\}\n\s+Update: \{/, 'an updatable view has Insert and Update');
  });

  it('a program using them compiles, and its marked mistakes do not', async () => {
    assert.deepEqual(scratch.compile([await scratch.write('uses.ts', PROGRAM)]), []);
  });
});
