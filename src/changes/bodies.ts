/**
 * The change feed's page size and answer (routes.ts), written once as a TypeBox schema: JSON Schema for the OpenAPI document
 * (openapi.ts) and, through `Static`, the handler's TypeScript type.
 */
import Type, { type Static } from 'typebox';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

export const Change = Type.Object({
  event_id: Type.String({ format: 'uuid', description: 'The change id, also `event_id` in its webhook notifications.' }),
  type: Type.String({ description: '<resource>.created|updated|deleted' }),
  resource: Type.String(),
  id: Type.String(),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'The row as this change committed it; null for a deletion.' }),
  changed_at: Type.String({ format: 'date-time' }),
});

export const ChangePage = Type.Object({
  changes: Type.Array(Change),
  next: Type.String({ description: 'Opaque cursor: pass it as `since` for the next page.' }),
  has_more: Type.Boolean(),
});
export type ChangePage = Static<typeof ChangePage>;
