/** `staykit gen types typescript [--schema api] [--output FILE]`: the `Database` type for @supabase/postgrest-js. */
import { writeFile } from 'node:fs/promises';
import { databaseTypes } from '../../typegen/load.js';
import { withDatabase } from '../support/database.js';
import { UsageError } from '../support/usage-error.js';

export const GEN_USAGE = 'usage: staykit gen types typescript [--schema api] [--output FILE]';

export interface GenFlags {
  schema?: string | undefined;
  output?: string | undefined;
}

export async function genCommand(positionals: string[], flags: GenFlags): Promise<void> {
  if (positionals.length !== 2 || positionals[0] !== 'types' || positionals[1] !== 'typescript') throw new UsageError(GEN_USAGE);
  const schema = flags.schema ?? 'api';
  if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new UsageError(`--schema: "${schema}" is not a schema name`);
  const source = await withDatabase(async (db) => {
    const { rows } = await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rows.length === 0) throw new UsageError(`no schema "${schema}" in the database`);
    return databaseTypes(db, schema);
  });
  if (flags.output) await writeFile(flags.output, source);
  else process.stdout.write(source);
}
