/**
 * Schema profiles (PostgREST's "Switching schemas"): a server exposes one or more schemas, the first being the
 * default. `Accept-Profile` picks the schema of GET, HEAD and OPTIONS; `Content-Profile` that of POST, PATCH, PUT and
 * DELETE (writes and `/rpc` POST). A schema that is not exposed is 406 PGRST106, before anything is planned — so a
 * write can never land in a schema the client did not name.
 */
import type { ApiError } from '../errors/api-error.js';
import { unacceptableSchema } from '../errors/postgrest-features.js';

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export type ProfileChoice =
  | { ok: true; schema: string; /** The response names its schema (`Content-Profile`), as PostgREST does. */ negotiated: boolean }
  | { ok: false; error: ApiError };

/** `headers` have lower-case names; `schemas` are the exposed ones, the default first. */
export function chooseProfile(method: string, headers: Record<string, string | undefined>, schemas: readonly string[]): ProfileChoice {
  const header = WRITE_METHODS.has(method.toUpperCase()) ? headers['content-profile'] : headers['accept-profile'];
  const requested = header?.trim();
  const fallback = schemas[0] as string;
  if (requested === undefined || requested === '') return { ok: true, schema: fallback, negotiated: schemas.length > 1 };
  if (!schemas.includes(requested)) return { ok: false, error: unacceptableSchema(schemas) };
  return { ok: true, schema: requested, negotiated: true };
}
