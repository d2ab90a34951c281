/**
 * schema/triggers.md lists each table's triggers "in the order PostgreSQL fires them": here that order
 * (scripts/schema-dump/render-triggers.ts's firingOrder) is checked against the order PostgreSQL really fires them,
 * on each backend — BEFORE STATEMENT, BEFORE ROW, AFTER ROW with the immediate constraint triggers, AFTER STATEMENT,
 * then deferred constraint triggers at commit; within each, names in byte order (upper case before lower case);
 * `UPDATE OF` triggers only when their column is set.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { readCatalog, type RelationInfo } from '../../scripts/schema-dump/catalog.js';
import { firingOrder } from '../../scripts/schema-dump/render-triggers.js';
import { forEachBackend } from '../support/databases.js';

const TRIGGERS = `
  CREATE SCHEMA firing_probe;
  CREATE TABLE firing_probe.fired (n bigint GENERATED ALWAYS AS IDENTITY, name text NOT NULL);
  CREATE TABLE firing_probe.t (id integer PRIMARY KEY, label text);
  CREATE FUNCTION firing_probe.note() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO firing_probe.fired (name) VALUES (TG_NAME);
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END
  $$;
  CREATE TRIGGER b_before_row BEFORE INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER "A_before_row" BEFORE INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER z_before_statement BEFORE INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH STATEMENT EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER a_after_statement AFTER INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH STATEMENT EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER c_after_row AFTER INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER "B_after_row" AFTER INSERT OR UPDATE OR DELETE ON firing_probe.t FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE CONSTRAINT TRIGGER a_deferred AFTER INSERT OR UPDATE OR DELETE ON firing_probe.t
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE CONSTRAINT TRIGGER d_immediate AFTER INSERT OR UPDATE OR DELETE ON firing_probe.t
    DEFERRABLE INITIALLY IMMEDIATE FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
  CREATE TRIGGER a_label_set BEFORE UPDATE OF label ON firing_probe.t FOR EACH ROW EXECUTE FUNCTION firing_probe.note();
`;

forEachBackend('schema/triggers.md firing order', (ctx) => {
  let relation: RelationInfo;
  before(async () => {
    await ctx.db.exec(TRIGGERS);
    const found = (await readCatalog(ctx.db)).relations.find((r) => r.qualified === 'firing_probe.t');
    assert.ok(found, 'the probe table is in the catalog');
    relation = found;
  });

  /** The names of the triggers `statement` fires, in the order they fire, up to and including COMMIT. */
  async function fired(statement: string): Promise<string[]> {
    await ctx.db.exec('TRUNCATE firing_probe.fired');
    await ctx.db.transaction(async (tx) => { await tx.query(statement); });
    return (await ctx.db.query<{ name: string }>('SELECT name FROM firing_probe.fired ORDER BY n')).rows.map((r) => r.name);
  }

  it('is the order PostgreSQL fires them for one row inserted, updated and deleted', async () => {
    assert.deepEqual(await fired(`INSERT INTO firing_probe.t VALUES (1, 'x')`), firingOrder(relation, 'INSERT').map((t) => t.name));
    assert.deepEqual(await fired(`UPDATE firing_probe.t SET label = 'y'`), firingOrder(relation, 'UPDATE').map((t) => t.name));
    assert.deepEqual(await fired(`DELETE FROM firing_probe.t`), firingOrder(relation, 'DELETE').map((t) => t.name));
  });

  it('spells the order out: statement, rows (upper case first), immediate constraint triggers by name, statement, commit', () => {
    assert.deepEqual(firingOrder(relation, 'UPDATE').map((t) => t.name), [
      'z_before_statement', 'A_before_row', 'a_label_set', 'b_before_row', 'B_after_row', 'c_after_row', 'd_immediate',
      'a_after_statement', 'a_deferred',
    ]);
  });

  it('leaves out an UPDATE OF trigger when its column is not set (it is listed: the list is per kind of change)', async () => {
    await ctx.db.exec(`INSERT INTO firing_probe.t VALUES (2, 'x')`);
    assert.deepEqual(await fired(`UPDATE firing_probe.t SET id = 3`),
      firingOrder(relation, 'UPDATE').map((t) => t.name).filter((name) => name !== 'a_label_set'));
  });
});
