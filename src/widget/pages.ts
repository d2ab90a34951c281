/**
 * The widget as Staykit serves it (docs/widget.md): `/widget.js`, the <staykit-widget> element built from
 * web/widget (a classic script any page may include), and `/w/<widget_id>`, a page holding just the widget for an
 * <iframe>, with the widget's first active publishable key, in the language the browser asks for, and framable
 * only by the widget's allowed origins.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { UUID } from '../common/patterns.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { escapeHtml } from '../common/html.js';

export interface WidgetPageOptions {
  db: Database;
  /** Where the built widget.js is (default web/widget/dist/widget.js of this checkout). */
  scriptPath?: string;
}

const DEFAULT_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'widget', 'dist', 'widget.js');

/** The first language tag of an Accept-Language header, if it looks like one. */
export function preferredLanguage(header: string | undefined): string | undefined {
  const tag = header?.split(',')[0]?.split(';')[0]?.trim();
  return tag && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(tag) ? tag : undefined;
}

export const widgetPages: FastifyPluginAsync<WidgetPageOptions> = async (app, options) => {
  const scriptPath = options.scriptPath ?? DEFAULT_SCRIPT;
  let script: string | undefined;

  app.get('/widget.js', async (_request, reply) => {
    script ??= await readFile(scriptPath, 'utf8').catch(() => undefined);
    if (script === undefined) throw notFound('The widget is not built: run npm run build:web');
    return reply.headers({
      'cache-control': 'public, max-age=300', 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff',
    }).type('text/javascript; charset=utf-8').send(script);
  });

  app.get<{ Params: { widgetId: string } }>('/w/:widgetId', async (request, reply) => {
    const { widgetId } = request.params;
    const { rows } = UUID.test(widgetId)
      ? await options.db.query<{ name: string; allowed_origins: string[]; key: string | null }>(
        `SELECT w.name, w.allowed_origins,
                (SELECT k.key FROM staykit_internal.publishable_keys AS k
                 WHERE k.widget_id = w.id AND k.organization_id = w.organization_id AND k.revoked_at IS NULL
                 ORDER BY k.created_at, k.id LIMIT 1) AS key
         FROM api.widgets AS w WHERE w.id = $1`, [widgetId])
      : { rows: [] };
    const widget = rows[0];
    if (!widget?.key) throw notFound(`Widget ${widgetId} not found, or it has no active publishable key`);
    const language = preferredLanguage(request.headers['accept-language']);
    const ancestors = ["'self'", ...widget.allowed_origins].join(' ');
    return reply.headers({
      'content-security-policy': `default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; img-src 'self' https: data:; frame-ancestors ${ancestors}; base-uri 'none'`,
      'cache-control': 'no-cache', 'x-content-type-options': 'nosniff',
    }).type('text/html; charset=utf-8').send(`<!doctype html>
<html lang="${escapeHtml(language ?? 'en')}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(widget.name)}</title><style>body{margin:0;padding:.5rem}</style></head>
<body><main><staykit-widget key="${escapeHtml(widget.key)}" api="/"${language ? ` lang="${escapeHtml(language)}"` : ''}></staykit-widget></main>
<script src="/widget.js"></script></body></html>`);
  });
};
