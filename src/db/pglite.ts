import { PGliteConnection } from './pglite-connection.js';
import { prepareDataDir } from './pglite-data-dir.js';
import { lockDataDir } from './pglite-lock.js';
import { runTransaction } from './pglite-transaction.js';
import type { Database, QueryResult, Row } from './types.js';
import { chooseEmbeddedCompiler, type EmbeddedCompiler } from './wasm-compiler.js';

export interface PGliteOptions {
  /** How V8 compiles Postgres' WebAssembly, decided by the process's first embedded database (src/db/wasm-compiler.ts). */
  compiler?: EmbeddedCompiler;
  /** In memory only: start from this database image (WorkerOptions.image) instead of an empty cluster. */
  image?: Uint8Array<ArrayBuffer>;
}

/**
 * Embedded Postgres (PGlite, WASM) in a worker thread of its own, so a long statement does not stop the HTTP
 * server, and a statement that runs past the statement timeout is cancelled (src/db/pglite-thread.ts).
 * `dataDir` undefined keeps everything in memory (tests); a data folder is kept owner-only
 * (src/db/pglite-data-dir.ts) and held by this process alone (src/db/pglite-lock.ts). One connection: statements
 * and transactions take turns on it.
 */
export async function openPGlite(dataDir: string | undefined, options: PGliteOptions = {}): Promise<Database> {
  chooseEmbeddedCompiler(options.compiler ?? 'optimizing');
  if (dataDir !== undefined) await prepareDataDir(dataDir);
  const unlock = dataDir === undefined ? undefined : await lockDataDir(dataDir);
  const connection = await PGliteConnection.open({ dataDir, image: options.image }).catch(async (error: unknown) => {
    await unlock?.();
    throw error;
  });
  const notify = (text: string) => db.onStatement?.(text);
  const db: Database = {
    backend: 'pglite',
    onStatement: undefined,
    query<R = Row>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
      notify(text);
      return connection.exclusive(async (thread) => (await thread.run({ op: 'run', statements: [{ text, values }] })) as QueryResult<R>);
    },
    async exec(sql: string): Promise<void> {
      notify(sql);
      await connection.exclusive((thread) => thread.run({ op: 'run', statements: [{ sql }] }));
    },
    transaction: (fn) => runTransaction(connection, notify, fn),
    whileFilesAtRest: dataDir === undefined ? undefined : (copy) => connection.exclusive(async (thread) => {
      // Every change written into the data files, not only into the WAL: the copy has nothing to replay when opened.
      await thread.run({ op: 'run', statements: [{ sql: 'CHECKPOINT' }] });
      return copy(dataDir);
    }),
    close: async () => {
      await connection.close();
      await unlock?.();
    },
  };
  return db;
}
