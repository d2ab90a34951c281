/** A mistake in the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage: staykit <command> [options]

Commands:
  serve [--port N] [--host H] [--database-url URL] [--data-dir DIR] [--processes N]   start the API (migrates first)
  rest --schema NAME[,NAME…] [--role R] [--aggregates] [--plans] [--postgrest 12|13] [--max-rows N] [serve's flags]   PostgREST-compatible server for any schemas (no keys)
  worker [--database-url URL]               background work (webhook deliveries, iCal sync) on its own; PostgreSQL only
  migrate                                   apply pending database migrations
  seed [--json]                             create the demo organization with products, pricing and bookings
  org create --name NAME                    create an organization and its first API key (JSON)
  key create --org ID [--name N] [--scopes read,write] [--expires-at ISO]   create an API key (JSON)
  key list --org ID [--json]                list an organization's API keys (never the secrets)
  key create --publishable (--widget ID | --site ID) [--name N]   a publishable key (pk_…) for a web page (docs/widget.md)
  key revoke KEY_ID                         revoke a key by its key_id or id (or a publishable key by its pk_…)
  user create --org ID --email E --role ROLE [--name N] [--password-stdin]   a dashboard user (prints a one-time set-password link)
  user reset-password --email E [--password-stdin]   a new set-password link (or the password from stdin)
  webhooks listen --forward URL --key KEY [--url SERVER] [--secret S]   forward new changes, signed, to a local endpoint
  backup --output FILE                      back up the database and media into one file (docs/operations.md)
  restore FILE [--force]                    restore a backup into an empty database or a new DATA_DIR, then migrate
  migrate-to-postgres                       copy the embedded database (DATA_DIR) into the empty database of DATABASE_URL
  gen types typescript [--schema api] [--output FILE]   the Database type for @supabase/postgrest-js (docs/clients.md)
  bench [--backend postgres|pglite|both] [--only TEXT] …   the benchmark (docs/benchmark.md; needs dev dependencies)

Configuration comes from the environment (DATABASE_URL, DATA_DIR, PORT, …); see the README.`;
