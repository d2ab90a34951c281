/**
 * `GET /v1/changes?since=<cursor>&limit=<n>&types=<type,…>` (docs/webhooks.md#change-feed): the organization's
 * changes after the cursor, oldest first, `{"changes": [...], "next": "<cursor>", "has_more": bool}`. Without
 * `since` the feed starts at the oldest change it keeps. A key sees the changes of the resources it may read
 * (`read`, or `<resource>:read`), and of those only the rows the tables' own policies let it read (./feed.ts); a key
 * that may read none of them gets the usual 403.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import type { Principal } from '../auth/principal.js';
import { readableTables } from '../auth/scopes.js';
import type { Database } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';
import { CHANGE_TYPES, EVENT_RESOURCES } from '../webhooks/events.js';
import { changeFeed, DEFAULT_PAGE_SIZE, feedRefusal, type ChangePage } from './bodies.js';
import { registerRoute } from '../routing/route-schema.js';
import { FEED_START, decodeCursor, encodeCursor, type FeedPosition } from './cursor.js';
import { cursorExpired, readChanges } from './feed.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';

/** The row-change types the feed holds: `<resource>.created|updated|deleted`. */
const FEED_TYPES = new Set(CHANGE_TYPES);
const MISSING_SCOPE_CODES = new Set(['SK403', 'SK703']);

export interface ChangeRouteDeps {
  db: Database;
  authorize: Authorize;
}

/**
 * The key, and the resources whose changes it may see. The feed has no scope of its own: a key with only
 * `contacts:read` reads the contacts' changes, so the scope check of `authorize` (which needs one resource) is
 * replaced by the key's readable resources.
 */
async function feedReader(request: FastifyRequest, authorize: Authorize): Promise<{ principal: Principal; resources: string[] }> {
  let principal: Principal;
  let refusal: ApiError | undefined;
  try {
    principal = await authorize(request, 'changes', 'read');
  } catch (error) {
    if (!(error instanceof ApiError && MISSING_SCOPE_CODES.has(error.code) && request.principal)) throw error;
    principal = request.principal;
    refusal = error;
  }
  const readable = readableTables(principal.scopes);
  const resources = EVENT_RESOURCES.filter((resource) => readable === 'all' || readable.includes(resource));
  if (resources.length === 0) throw refusal ?? feedRefusal('The key may read no resource');
  return { principal, resources };
}

function changeTypes(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const types = raw.split(',').map((type) => type.trim()).filter(Boolean);
  const unknown = types.filter((type) => !FEED_TYPES.has(type));
  if (types.length === 0 || unknown.length > 0) {
    throw feedRefusal(`"types" takes a comma-separated list of <resource>.created|updated|deleted${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`);
  }
  return types;
}

function position(raw: string | undefined): FeedPosition {
  if (raw === undefined) return FEED_START;
  const decoded = decodeCursor(raw);
  if (!decoded) throw feedRefusal('"since" is not a cursor of this feed: use the "next" of a previous page');
  return decoded;
}

export const changeRoutes: FastifyPluginAsync<ChangeRouteDeps> = async (app, { db, authorize }) => {
  refuseOtherMethods(app, '/changes', ['GET']);
  // The key is checked (feedReader) before the query is looked at, as every route's scope is.
  const readers = new WeakMap<FastifyRequest, string[]>();
  const feedAuthorize: Authorize = async (request) => {
    const { principal, resources } = await feedReader(request, authorize);
    readers.set(request, resources);
    return principal;
  };
  registerRoute(app, changeFeed, feedAuthorize, async (request, reply, principal) => {
    const resources = readers.get(request)!;
    const after = position(request.query.since);
    const limit = request.query.limit ?? DEFAULT_PAGE_SIZE;
    const types = changeTypes(request.query.types);
    // Without a cursor the feed starts at the oldest change it keeps; with one, deleted changes after it are a 410.
    if (after !== FEED_START && await cursorExpired(db, principal.organizationId, after)) throw apiError('SK741');
    const page = await inTenantTransaction(db, principal, async (tx) => ({
      result: await readChanges(tx, { after, resources, types, limit }),
      rollback: false,
    }));
    const answer: ChangePage = { changes: page.changes, next: encodeCursor(page.next), has_more: page.changes.length === limit };
    return reply.send(answer);
  });
};
