/**
 * Serves the built dashboard (web/dashboard/dist) at /admin: hashed assets cached for a year, index.html never
 * cached, and every other /admin path answered with index.html so a reload or a shared link opens the same page
 * (the app routes in the browser). Nothing is built or downloaded at run time: `npm ci` builds the app
 * (docs/dashboard.md). Without a build, /admin's 404 says how to make one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFound } from '../errors/catalogue.js';
import { apiError } from '../errors/registry.js';

export const DASHBOARD_PATH = '/admin';

/**
 * The page may load only this server's scripts, styles and data, and may not be framed (clickjacking). Mantine sets
 * inline `style` attributes, hence 'unsafe-inline' for styles only.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

const sendIndex = (reply: FastifyReply) =>
  reply.headers(SECURITY_HEADERS).header('cache-control', 'no-cache').sendFile('index.html');

export async function serveBuiltApp(app: FastifyInstance, distFolder: string): Promise<void> {
  if (!existsSync(join(distFolder, 'index.html'))) {
    const notBuilt = apiError('SK404', {
      params: { message: 'The dashboard is not built' },
      hint: 'Run `npm run build:web` (npm ci does it too), then restart the server.',
    });
    app.get(DASHBOARD_PATH, () => { throw notBuilt; });
    app.get(`${DASHBOARD_PATH}/*`, () => { throw notBuilt; });
    return;
  }
  await app.register(fastifyStatic, {
    root: distFolder,
    prefix: `${DASHBOARD_PATH}/`,
    // One route per built file (the build is fixed while the server runs); other paths fall to the routes below.
    wildcard: false,
    index: false,
    setHeaders: (reply, path) => {
      reply.headers(SECURITY_HEADERS);
      // Vite puts a content hash in every asset's name: a changed file is a new name.
      reply.header('cache-control', path.includes(`${join('dist', 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.get(DASHBOARD_PATH, (_request, reply) => reply.redirect(`${DASHBOARD_PATH}/`));
  app.get(`${DASHBOARD_PATH}/`, (_request, reply) => sendIndex(reply));
  // A missing asset is a 404, not the app (a stale page asking for an old bundle must not get HTML as script).
  app.get(`${DASHBOARD_PATH}/assets/*`, (request) => { throw notFound(`No file at ${request.url.split('?')[0]}`); });
  app.get(`${DASHBOARD_PATH}/*`, (_request, reply) => sendIndex(reply));
}
