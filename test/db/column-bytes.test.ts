/**
 * Columns read as the bytes PostgreSQL sent (QueryOptions.bytes, src/db/column-bytes.ts): on PostgreSQL a Buffer
 * holding exactly the UTF-8 PostgreSQL sent — multi-byte characters, a value spread over many socket reads, NULL —
 * while the row's other columns, and every later statement on the connection, are decoded as before; on PGlite the
 * same text as a string.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';

/** Two-, three- and four-byte characters, a quote and a backslash (as JSON text escapes them). */
const PIECE = 'Zoë Ångström — 東京 😀 "quoted" \\ ';

const BODY = `SELECT 7 AS n, repeat($1, $2::int) AS body, 'plain' AS other`;

interface BodyRow {
  n: number;
  body: Buffer | string | null;
  other: string;
}

forEachBackend('column values as bytes', (ctx) => {
  it('a byte column holds the UTF-8 PostgreSQL sent; the other columns are decoded as usual', async () => {
    for (const times of [1, 200_000]) {
      const expected = Buffer.from(PIECE.repeat(times), 'utf8');
      const { rows } = await ctx.db.transaction((tx) => tx.query<BodyRow>(BODY, [PIECE, times], { bytes: ['body'] }));
      const row = rows[0]!;
      if (ctx.backend === 'postgres') {
        assert.ok(Buffer.isBuffer(row.body), 'a Buffer on PostgreSQL');
        assert.ok(row.body.equals(expected), `the ${expected.length} bytes PostgreSQL sent`);
      } else {
        assert.equal(row.body, PIECE.repeat(times));
      }
      assert.equal(row.n, 7);
      assert.equal(row.other, 'plain');
    }
  });

  it('with COMMIT in the same round trip too, and NULL stays null', async () => {
    const { rows } = await ctx.db.transaction((tx) =>
      tx.queryAndCommit<BodyRow>(`SELECT NULL::text AS body UNION ALL SELECT $1`, [PIECE], { bytes: ['body'] }));
    assert.equal(rows[0]!.body, null);
    assert.equal(String(rows[1]!.body), PIECE);
  });

  it('the statements after it on the connection read strings again, also after one failed amid its rows', async () => {
    await assert.rejects(ctx.db.transaction((tx) => tx.query(
      `SELECT CASE WHEN g < 3 THEN repeat($1, 1000) ELSE (1 / (g - g))::text END AS body FROM generate_series(1, 4) AS g`,
      [PIECE], { bytes: ['body'] })), { code: '22012' });
    const { rows } = await ctx.db.transaction((tx) => tx.query<BodyRow>(BODY, [PIECE, 3]));
    assert.equal(rows[0]!.body, PIECE.repeat(3));
    const plain = await ctx.db.query<{ body: string }>(`SELECT repeat('é', 70000) AS body`);
    assert.equal(plain.rows[0]!.body, 'é'.repeat(70000));
  });
});
