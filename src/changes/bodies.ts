/**
 * The change feed written once (src/routing/route-schema.ts): method, url, documentation and the TypeBox schemas of its
 * query and answer, from which routes.ts registers it (validated, typed) and openapi.ts documents it.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { component } from '../routing/schema-component.js';
import { apiError } from '../errors/registry.js';

export const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;

export const Change = Type.Object({
  event_id: Type.String({ format: 'uuid', description: 'The change id, also `event_id` in its webhook notifications.' }),
  type: Type.String({ description: '<resource>.created|updated|deleted' }),
  resource: Type.String(),
  id: Type.String(),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The row as this change committed it; null for a deletion.' }),
  changed_at: Type.String({ format: 'date-time' }),
});

const ChangePage = component('ChangePage', Type.Object({
  changes: Type.Array(Change),
  next: Type.String({ description: 'Opaque cursor: pass it as `since` for the next page.' }),
  has_more: Type.Boolean(),
}));
export type ChangePage = Static<typeof ChangePage>;

export const feedRefusal = (message: string) => apiError('SK740', { params: { message } });

export const changeFeed = defineRoute({
  method: 'GET', url: '/changes',
  // No scope of its own: the changes of every resource the key may read (routes.ts's feedReader checks it).
  scope: { resource: 'changes', access: 'read' },
  operationId: 'changes', summary: "The organization's changes since a cursor, in commit order", tags: ['operations'],
  description: 'Every create, update and delete of the webhook catalogue resources the key may read '
    + '(docs/webhooks.md#change-feed). A cursor older than the retention answers 410 (SK741).',
  query: Type.Object({
    since: Type.Optional(Type.String({ description: 'The `next` of a previous page.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
    types: Type.Optional(Type.String({ description: 'Comma-separated <resource>.created|updated|deleted.' })),
  }),
  responses: { 200: { description: 'A page of changes.', schema: ChangePage } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'Gone'], invalid: feedRefusal,
});
