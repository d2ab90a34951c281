/**
 * The real app with a pinned clock, and a client of it with an API key: what the booking-flow tests share. Their data
 * comes from test/support/fixtures.ts.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Database } from '../../src/db/types.js';
import { buildApp, type AppOptions } from '../../src/http/app.js';

/** Monday 1 March 2027, 10:00 UTC: "today" is 2027-03-01 in Europe/Amsterdam (and in UTC). */
export const NOW = new Date('2027-03-01T10:00:00Z');

/** The real app on `db`; `options` for the settings a test varies. */
export async function startBookingApp(
  db: Database, now: (() => Date) | null = () => NOW, options: Omit<AppOptions, 'db' | 'now'> = {},
): Promise<FastifyInstance> {
  return buildApp(now ? { ...options, db, now } : { ...options, db });
}

export function client(app: FastifyInstance, key: string) {
  const headers = { authorization: `Bearer ${key}` };
  return {
    post: (url: string, body: unknown, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> =>
      app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload: body as object }),
    get: (url: string): Promise<LightMyRequestResponse> => app.inject({ method: 'GET', url, headers }),
  };
}
