/**
 * The preview on a unit's page: the widget's catalogue of that one unit, read with the member's session — the real
 * widget renders it in the dashboard (docs/dashboard.md#unit-preview). No publishable key is made for it: a key is
 * public by design and would let anyone read and book whatever it lists, drafts included, while this answers only
 * a member who may read every table the catalogue is made of, inside their organization's row-level security.
 */
import type { FastifyPluginAsync } from 'fastify';
import { hasScope, requiredScope } from '../auth/scopes.js';
import type { SessionAuthenticator } from '../auth/session-authenticate.js';
import { dashboardAuthorization } from '../auth/session-authorize.js';
import { sessionErrors } from '../auth/session-errors.js';
import { requestOrigin } from '../common/request-origin.js';
import type { Database } from '../db/types.js';
import { notFound } from '../errors/catalogue.js';
import { registerRoute } from '../routing/route-schema.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { CATALOGUE_TABLES, catalogueQuery } from '../widget/catalogue-queries.js';
import { unitPreview } from './bodies.js';

export interface UnitPreviewRouteOptions {
  db: Database;
  sessions: SessionAuthenticator;
}

export const unitPreviewRoutes: FastifyPluginAsync<UnitPreviewRouteOptions> = async (app, { db, sessions }) => {
  const { authorize } = dashboardAuthorization(sessions);

  registerRoute(app, unitPreview, authorize, async (request, reply, principal) => {
    const unreadable = CATALOGUE_TABLES.find((table) => !hasScope(principal.scopes, table, 'read'));
    if (unreadable !== undefined) throw sessionErrors.missingPermission(requiredScope(unreadable, 'read'));
    const { text, values } = catalogueQuery({ widgetId: null, siteId: null, productId: request.params.id }, requestOrigin(request));
    const catalogue = await inTenantTransaction(db, principal, async (tx) => ({
      result: (await tx.query<{ catalogue: { products: unknown[] } }>(text, values)).rows[0]!.catalogue, rollback: true,
    }));
    if (catalogue.products.length === 0) throw notFound(`No unit ${request.params.id} in this organization`);
    return reply.header('cache-control', 'no-store').send(catalogue);
  });
};
