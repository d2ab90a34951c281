/**
 * A server process for the two-process Redis test: the Staykit app with the rate limit, on PostgreSQL
 * (`DATABASE_URL`), counting in `REDIS_URL`. Prints `listening on <url>` like `staykit serve`.
 */
import { openPostgres } from '../../../src/db/postgres.js';
import { buildLimitedApp } from './app.js';

const env = process.env;
const db = await openPostgres({ connectionString: env.DATABASE_URL!, maxConnections: 3 });
const app = await buildLimitedApp(db, {
  rate: {
    perMinute: Number(env.RL_PER_MINUTE ?? 600),
    burst: Number(env.RL_BURST ?? 100),
    redisUrl: env.REDIS_URL,
    keyPrefix: env.RL_PREFIX,
  },
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on ${url}`);
const stop = async () => {
  await app.close();
  await db.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
