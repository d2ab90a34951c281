/** One statement on the benchmark's admin connection (CREATE/DROP DATABASE, reachability), on a client of its own. */
import pg from 'pg';

export async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end().catch(() => undefined);
  }
}
