/** postgrest-js against this server's /v1, with the session cookie and CSRF token. */
import { PostgrestClient } from '@supabase/postgrest-js';
import { toApiError } from './errors';
import { sessionFetch } from './http';

export const database = new PostgrestClient(`${window.location.origin}/v1`, { fetch: sessionFetch });

export type Database = typeof database;

interface Result<T> {
  data: T | null;
  error: unknown;
  status: number;
  count?: number | null;
}

/** The rows of a postgrest-js result, or the API's error thrown. */
export function rowsOf<T>(result: Result<T>): T {
  if (result.error) throw toApiError(result.error, result.status);
  return result.data as T;
}
