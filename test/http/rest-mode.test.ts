/** `staykit rest`: the engine serving an arbitrary schema the way PostgREST does, driven by postgrest-js. */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { PostgrestClient } from '@supabase/postgrest-js';
import { forEachBackend } from '../support/databases.js';
import { buildRestApp } from '../../src/http/rest-app.js';

forEachBackend('staykit rest (any schema, PostgREST-style)', (ctx) => {
  let app: FastifyInstance;
  let client: PostgrestClient;

  before(async () => {
    await ctx.db.exec(`
      CREATE SCHEMA library;
      CREATE TABLE library.authors (id serial PRIMARY KEY, name text NOT NULL);
      CREATE TABLE library.books (id serial PRIMARY KEY, title text NOT NULL, year int, author_id int REFERENCES library.authors (id));
      INSERT INTO library.authors (name) VALUES ('Tove Jansson'), ('Italo Calvino');
      INSERT INTO library.books (title, year, author_id) VALUES ('The Summer Book', 1972, 1), ('Invisible Cities', 1972, 2), ('If on a winter''s night a traveler', 1979, 2);
      CREATE FUNCTION library.books_after(since int) RETURNS SETOF library.books LANGUAGE sql STABLE AS $$ SELECT * FROM library.books WHERE year > since $$;
      CREATE FUNCTION library.add(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;`);
    app = await buildRestApp({ db: ctx.db, schema: 'library' });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    client = new PostgrestClient(address);
  });
  after(() => app.close());

  it('reads with embeds in both directions', async () => {
    const { data, error } = await client.from('authors').select('name, books(title)').eq('name', 'Italo Calvino');
    assert.equal(error, null);
    assert.equal((data![0]!.books as unknown[]).length, 2);
    const books = await client.from('books').select('title, author:authors(name)').order('id').limit(1);
    assert.deepEqual(books.data, [{ title: 'The Summer Book', author: { name: 'Tove Jansson' } }]);
  });

  it('calls functions through /rpc with GET and POST', async () => {
    const sum = await client.rpc('add', { a: 2, b: 40 });
    assert.equal(sum.error, null);
    assert.equal(sum.data, 42);
    const recent = await client.rpc('books_after', { since: 1975 }, { get: true }).select('title');
    assert.deepEqual(recent.data, [{ title: "If on a winter's night a traveler" }]);
  });

  it('writes without tenancy, and allows an unfiltered delete as PostgREST does', async () => {
    const inserted = await client.from('authors').insert({ name: 'Ursula K. Le Guin' }).select('name').single();
    assert.deepEqual(inserted.data, { name: 'Ursula K. Le Guin' });
    const removed = await client.from('books').delete().select('id');
    assert.equal(removed.error, null);
    assert.equal(removed.data!.length, 3);
  });
});
