/**
 * scripts/schema-dump/sources.ts names the migration that holds a function's definition in effect and the one that
 * created a trigger, by reading the migrations' text: the last creation wins, overloads are told apart by their
 * number of input parameters, and triggers made by a loop over tables are found, or not guessed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrationSources } from '../../scripts/schema-dump/sources.js';

const sources = migrationSources([
  { id: '0001_first', sql: `
    CREATE TABLE api.early (id int);
    CREATE FUNCTION staykit_internal.book(payload jsonb) RETURNS jsonb LANGUAGE sql AS $$ SELECT payload $$;
    CREATE FUNCTION staykit_internal.pair(a int, OUT b int, OUT c int) LANGUAGE sql AS $$ SELECT a, a $$;
    DO $$ BEGIN FOR t IN SELECT table_name FROM information_schema.tables LOOP
      EXECUTE format('CREATE TRIGGER set_updated_at BEFORE UPDATE ON api.%I FOR EACH ROW EXECUTE FUNCTION f()', t);
    END LOOP; END $$;` },
  { id: '0002_second', sql: `
    CREATE OR REPLACE FUNCTION staykit_internal.book(payload jsonb) RETURNS jsonb LANGUAGE sql AS $$ SELECT payload $$;
    CREATE TABLE api.late (id int);
    CREATE TRIGGER set_updated_at BEFORE UPDATE ON api.late FOR EACH ROW EXECUTE FUNCTION f();
    DO $$ BEGIN FOREACH t IN ARRAY ARRAY['early'] LOOP
      EXECUTE format('CREATE TRIGGER outbox AFTER INSERT ON api.%I FOR EACH ROW EXECUTE FUNCTION g()', t);
    END LOOP; END $$;` },
  { id: '0003_third', sql: `
    -- A new overload does not replace the one-parameter function.
    CREATE FUNCTION staykit_internal.book(payload jsonb, -- what to book
                                          source text DEFAULT 'api') RETURNS jsonb LANGUAGE sql AS $$ SELECT payload $$;` },
]);

test('a function is defined by the last migration that creates or replaces it with as many input parameters', () => {
  assert.equal(sources.functionDefinedIn('staykit_internal', 'book', 1), '0002_second');
  assert.equal(sources.functionDefinedIn('staykit_internal', 'book', 2), '0003_third');
  assert.equal(sources.functionDefinedIn('staykit_internal', 'pair', 1), '0001_first', 'OUT parameters are not inputs');
  assert.equal(sources.functionDefinedIn('staykit_internal', 'book', 3), null);
  assert.equal(sources.functionDefinedIn('api', 'book', 1), null, 'another schema');
});

test('a trigger is created by its own CREATE TRIGGER, else by a loop that names the table or ran once the table existed', () => {
  assert.equal(sources.triggerCreatedIn('api', 'late', 'set_updated_at'), '0002_second');
  assert.equal(sources.triggerCreatedIn('api', 'early', 'set_updated_at'), '0001_first');
  assert.equal(sources.triggerCreatedIn('api', 'early', 'outbox'), '0002_second');
  assert.equal(sources.triggerCreatedIn('api', 'unknown', 'outbox'), null, 'a table the migrations never create is not guessed');
});
