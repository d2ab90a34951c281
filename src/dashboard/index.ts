/**
 * The admin dashboard at /admin: the single-page app in web/dashboard (built by `npm ci`), served by this process.
 * The app reads and writes through /v1 with the dashboard session (docs/dashboard.md).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync } from 'fastify';
import { serveBuiltApp } from './static-app.js';

export interface DashboardOptions {
  /** The built app; default web/dashboard/dist of this checkout. */
  distFolder?: string;
}

const DEFAULT_DIST = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web', 'dashboard', 'dist');

export const dashboardRoutes: FastifyPluginAsync<DashboardOptions> = async (app, options) => {
  await serveBuiltApp(app, options.distFolder ?? DEFAULT_DIST);
};
