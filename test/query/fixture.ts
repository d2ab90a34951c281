/**
 * A PostgREST-test-like fixture schema for the engine tests, created by the tests themselves (not Staykit's
 * migrations): one-to-many, many-to-one, self-reference, many-to-many through junctions, a composite FK, two FKs
 * to the same table (ambiguity), many column types, a generated column, a view, functions, 1100 rows.
 */
import type { Database, Queryable } from '../../src/db/types.js';
import { runRequest } from '../../src/query/run.js';
import type { EngineOptions } from '../../src/query/plan/types.js';
import { type EngineResponse } from '../../src/query/response.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { type SchemaCache } from '../../src/schema/types.js';

export const FIXTURE_ROLE = 'staykit_fixture_api';

export const FIXTURE_SQL = `
DO $$ BEGIN
  CREATE ROLE ${FIXTURE_ROLE} NOLOGIN;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
CREATE SCHEMA fixture;
CREATE TABLE fixture.clients (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE fixture.projects (id int PRIMARY KEY, name text NOT NULL, client_id int REFERENCES fixture.clients(id));
CREATE TABLE fixture.tasks (id int PRIMARY KEY, name text NOT NULL, project_id int REFERENCES fixture.projects(id));
CREATE TABLE fixture.orgs (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE fixture.users (id int PRIMARY KEY, name text NOT NULL, org_id int REFERENCES fixture.orgs(id));
CREATE TABLE fixture.users_tasks (
  user_id int REFERENCES fixture.users(id), task_id int REFERENCES fixture.tasks(id), PRIMARY KEY (user_id, task_id));
CREATE TABLE fixture.memberships (
  org_id int REFERENCES fixture.orgs(id), user_id int REFERENCES fixture.users(id), PRIMARY KEY (org_id, user_id));
CREATE TABLE fixture.messages (
  id int PRIMARY KEY, body text NOT NULL,
  sender_id int NOT NULL REFERENCES fixture.users(id), recipient_id int NOT NULL REFERENCES fixture.users(id));
CREATE TABLE fixture.family (id int PRIMARY KEY, name text NOT NULL, parent_id int REFERENCES fixture.family(id));
CREATE TABLE fixture.sites (id int, org_id int REFERENCES fixture.orgs(id), name text NOT NULL, PRIMARY KEY (id, org_id));
CREATE TABLE fixture.pages (
  id int PRIMARY KEY, org_id int NOT NULL, site_id int NOT NULL, title text NOT NULL,
  CONSTRAINT pages_site_fkey FOREIGN KEY (site_id, org_id) REFERENCES fixture.sites(id, org_id));
CREATE TABLE fixture.passports (id int PRIMARY KEY, user_id int UNIQUE REFERENCES fixture.users(id), number text);
CREATE TYPE fixture.mood AS ENUM ('sad', 'ok', 'happy');
CREATE TABLE fixture.things (
  id int PRIMARY KEY,
  name text,
  amount numeric,
  active boolean,
  tags text[],
  nums int[],
  data jsonb,
  during int4range,
  born date,
  mood fixture.mood,
  doc tsvector,
  content text,
  name_upper text GENERATED ALWAYS AS (upper(name)) STORED
);
COMMENT ON TABLE fixture.things IS 'things of every type';
COMMENT ON COLUMN fixture.things.name IS 'the name';
CREATE TABLE fixture.numbers (n int PRIMARY KEY);
CREATE TABLE fixture.items (
  id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  qty int NOT NULL DEFAULT 1,
  note text,
  secret text DEFAULT 'hidden',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE fixture.accounts (id int PRIMARY KEY, org text NOT NULL, name text NOT NULL);
CREATE TABLE fixture.logs (id int PRIMARY KEY, line text);
CREATE VIEW fixture.client_names AS SELECT id, name FROM fixture.clients;
CREATE FUNCTION fixture.add_them(a int, b int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT a + b';
CREATE FUNCTION fixture.projects_of(cid int) RETURNS SETOF fixture.projects LANGUAGE sql STABLE
  AS 'SELECT * FROM fixture.projects WHERE client_id = cid';
CREATE FUNCTION fixture.client_ids() RETURNS SETOF int LANGUAGE sql STABLE AS 'SELECT id FROM fixture.clients';
CREATE FUNCTION fixture.sum_all(nums int[], extra jsonb DEFAULT '{}', label text DEFAULT 'sum') RETURNS text
  LANGUAGE sql IMMUTABLE AS $f$ SELECT label || ':' || ((SELECT sum(x) FROM unnest(nums) AS x) + coalesce((extra->>'add')::int, 0)) $f$;
CREATE FUNCTION fixture.do_nothing() RETURNS void LANGUAGE sql AS '';
CREATE FUNCTION fixture.greet(name text DEFAULT 'world') RETURNS text LANGUAGE sql IMMUTABLE AS $f$ SELECT 'hello ' || name $f$;

GRANT USAGE ON SCHEMA fixture TO ${FIXTURE_ROLE};
GRANT SELECT, DELETE ON fixture.items TO ${FIXTURE_ROLE};
GRANT INSERT (name, qty, note), UPDATE (name, qty, note) ON fixture.items TO ${FIXTURE_ROLE};
GRANT SELECT ON fixture.logs TO ${FIXTURE_ROLE};

INSERT INTO fixture.clients VALUES (1, 'Microsoft'), (2, 'Apple'), (3, 'Oracle');
INSERT INTO fixture.projects VALUES
  (1, 'Windows 7', 1), (2, 'Windows 10', 1), (3, 'IOS', 2), (4, 'OSX', 2), (5, 'Orphan', NULL);
INSERT INTO fixture.tasks VALUES
  (1, 'Design w7', 1), (2, 'Code w7', 1), (3, 'Design w10', 2), (4, 'Code w10', 2),
  (5, 'Design IOS', 3), (6, 'Code IOS', 3), (7, 'Design OSX', 4), (8, 'Code OSX', 4);
INSERT INTO fixture.orgs VALUES (1, 'Acme'), (2, 'Globex');
INSERT INTO fixture.users VALUES (1, 'Angela', 1), (2, 'Michael', 1), (3, 'Dwight', 2);
INSERT INTO fixture.users_tasks VALUES (1, 1), (1, 2), (1, 3), (2, 5), (3, 1);
INSERT INTO fixture.memberships VALUES (1, 1), (2, 1), (1, 3);
INSERT INTO fixture.messages VALUES (1, 'hi', 1, 2), (2, 'yo', 2, 1), (3, 'hey', 3, 1);
INSERT INTO fixture.family VALUES (1, 'Root', NULL), (2, 'Child A', 1), (3, 'Child B', 1), (4, 'Grandchild', 2);
INSERT INTO fixture.sites VALUES (1, 1, 'Acme site'), (1, 2, 'Globex site');
INSERT INTO fixture.pages VALUES (1, 1, 1, 'Acme home'), (2, 2, 1, 'Globex home'), (3, 1, 1, 'Acme about');
INSERT INTO fixture.passports VALUES (1, 1, 'P-1'), (2, 3, 'P-3');
INSERT INTO fixture.things VALUES
  (1, 'alpha', 1.5, true, '{a,b}', '{1,2,3}', '{"k": "v", "n": 1, "arr": [1, 2], "o": {"x": 10}}', '[1,5)', '2024-01-10', 'happy',
   to_tsvector('english', 'the quick brown fox'), 'the quick brown fox'),
  (2, 'beta', 2.5, false, '{b,c}', '{4,5}', '{"k": "w", "n": 2, "o": {"x": 20}}', '[5,10)', '2024-02-20', 'sad',
   to_tsvector('english', 'lazy dogs sleep'), 'lazy dogs sleep'),
  (3, 'Gamma', NULL, NULL, '{}', NULL, '{"k": "it''s", "n": 3}', '[20,30)', NULL, 'ok',
   to_tsvector('english', 'fat cats jump'), 'fat cats jump'),
  (4, 'a,b "quoted"', 4, true, '{"x y"}', '{7}', NULL, 'empty', '2023-12-31', NULL, NULL, NULL);
INSERT INTO fixture.numbers SELECT g FROM generate_series(1, 1100) AS g;
INSERT INTO fixture.items (name, qty, note) VALUES ('first', 1, 'one'), ('second', 2, NULL);
INSERT INTO fixture.accounts VALUES (1, 'org-a', 'A one'), (2, 'org-a', 'A two'), (3, 'org-b', 'B one');
INSERT INTO fixture.logs VALUES (1, 'started');
`;

export async function createFixture(db: Queryable): Promise<void> {
  await db.exec(FIXTURE_SQL);
}

export const DEFAULT_OPTIONS: EngineOptions = {
  maxRows: 1000,
  requireFilterForWrites: false,
  basePath: '',
};

/** The engine's answer with its body as text (on PostgreSQL the engine hands over the bytes PostgreSQL sent). */
export interface ClientResponse extends Omit<EngineResponse, 'body'> {
  body: string | undefined;
  json: unknown;
  statements: string[];
}

export interface RequestInit {
  headers?: Record<string, string>;
  body?: unknown;
  options?: Partial<EngineOptions>;
  cache?: SchemaCache;
}

class Rollback extends Error {}

/** A tiny client: runs one engine request in its own transaction, rolled back when the engine says so. */
export function engineClient(getDb: () => Database, getCache: () => SchemaCache) {
  return async function request(method: string, pathAndQuery: string, init: RequestInit = {}): Promise<ClientResponse> {
    const db = getDb();
    const [path = '', query = ''] = pathAndQuery.split(/\?(.*)/s);
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(init.headers ?? {})) headers[key.toLowerCase()] = value;
    const body = init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const statements: string[] = [];
    let response: EngineResponse | undefined;
    try {
      await db.transaction(async (tx) => {
        const counting: Queryable = {
          query: (text, values) => {
            statements.push(text);
            return tx.query(text, values);
          },
          exec: (sql) => tx.exec(sql),
        };
        response = await runRequest(
          counting,
          { method, path: path.replace(/^\//, ''), query, headers, body },
          init.cache ?? getCache(),
          { ...DEFAULT_OPTIONS, ...init.options },
        );
        if (response.rollback) throw new Rollback();
      });
    } catch (error) {
      if (!(error instanceof Rollback)) throw error;
    }
    const result = response as EngineResponse;
    let json: unknown;
    const contentType = result.headers['Content-Type'] ?? '';
    const text = result.body === undefined ? undefined : String(result.body);
    if (text !== undefined && text !== '' && contentType.includes('json')) json = JSON.parse(text);
    return { ...result, body: text, json, statements };
  };
}

export async function fixtureCache(db: Queryable, role?: string): Promise<SchemaCache> {
  return loadSchemaCache(db, role === undefined ? { schema: 'fixture' } : { schema: 'fixture', role });
}
