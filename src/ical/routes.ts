/**
 * `GET /v1/ical/<secret>.ics` (and HEAD): a unit's export feed. No API key — the secret is the credential. Any
 * unknown, rotated or malformed secret, and a retired unit, answer the same plain 404. `ETag` /
 * `If-None-Match` → 304. `?exclude_calendar=<external calendar id>` leaves out the events imported from that
 * calendar (give Airbnb the URL that excludes the Airbnb calendar: no echo of its own reservations).
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Database } from '../db/types.js';
import { UUID } from '../common/patterns.js';
import { buildFeed, notModified, type ExportEvent } from './export.js';
import { exportEvents, logExport, productBySecret, type FeedProduct } from './export-queries.js';

export interface IcalRoutesOptions {
  db: Database;
  /** Past events kept in the feed (days before today). Default 60. */
  pastDays?: number;
}

const SECRET = /^([A-Za-z0-9]{16,128})\.ics$/;

function notFound(reply: FastifyReply) {
  return reply.status(404).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Not Found');
}

/** Registered under the API's `/v1` prefix. */
export const icalRoutes: FastifyPluginAsync<IcalRoutesOptions> = async (app, options) => {
  const { db } = options;
  const pastDays = options.pastDays ?? 60;

  app.get<{ Params: { file: string }; Querystring: { exclude_calendar?: string } }>('/ical/:file', async (request, reply) => {
    const match = SECRET.exec(request.params.file);
    if (!match) return notFound(reply);
    const found = await db.query<FeedProduct>(productBySecret(match[1]!).text, productBySecret(match[1]!).values);
    if (found.rows.length !== 1) return notFound(reply);
    const product = found.rows[0]!;

    const exclude = request.query.exclude_calendar;
    if (exclude !== undefined && !UUID.test(exclude)) {
      return reply.status(400).type('text/plain; charset=utf-8').send('exclude_calendar must be an external calendar id');
    }
    const query = exportEvents(product, pastDays, exclude ?? null);
    const { rows } = await db.query<ExportEvent & { clamped: boolean }>(query.text, query.values);
    const clamped = rows.filter((row) => row.clamped).map((row) => row.id);
    if (clamped.length > 0) {
      request.log.warn({ product_id: product.id, calendar_event_ids: clamped },
        'iCal export: events with dates outside 1900-01-01 – 2199-12-31 were clamped into that range');
    }
    const feed = buildFeed(product.name, rows.map((row) => ({ ...row, padding: Number(row.padding) })), product.details);

    const log = logExport(product, request.headers['user-agent']?.slice(0, 500) ?? null,
      `${product.details ? 'details' : 'no-details'} feed, ${rows.length} events`);
    await db.query(log.text, log.values).catch((error: unknown) => request.log.warn({ err: error }, 'iCal export log failed'));

    reply
      .header('etag', feed.etag)
      .header('cache-control', 'private, no-cache')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex');
    if (notModified(request.headers['if-none-match'], feed.etag)) return reply.status(304).send();
    return reply
      .status(200)
      .type('text/calendar; charset=utf-8')
      .header('content-disposition', 'inline; filename="calendar.ics"')
      .send(feed.body);
  });
};
