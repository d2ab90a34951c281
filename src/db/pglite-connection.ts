/**
 * The embedded database's one connection: PGlite runs Postgres in single-user mode, so whoever uses it — one
 * statement outside a transaction, or a whole transaction from BEGIN to its end — has it to themselves, in the order
 * they asked. And the thread behind it: when a statement is cancelled (src/db/pglite-thread.ts) or the thread
 * crashes, the next user gets a new thread on the same data folder.
 */
import { PGliteThread } from './pglite-thread.js';
import { connectionLostError, type WorkerOptions } from './pglite-protocol.js';

const ignore = (): void => undefined;

export class PGliteConnection {
  private thread: Promise<PGliteThread>;
  /** Set when `thread` failed to start: the next user tries again. */
  private startFailed = false;
  private closed = false;
  /** Settles when the last user handed in so far is done. */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: WorkerOptions) {
    this.thread = this.start();
  }

  static async open(options: WorkerOptions): Promise<PGliteConnection> {
    const connection = new PGliteConnection(options);
    await connection.thread;
    return connection;
  }

  /** Runs `work` with the connection to itself, once everyone who asked before is done. */
  exclusive<T>(work: (thread: PGliteThread) => Promise<T>): Promise<T> {
    const turn = this.tail.then(() => this.current()).then(work);
    this.tail = turn.catch(ignore);
    return turn;
  }

  /** Closes the database once everyone who asked before is done. */
  close(): Promise<void> {
    const turn = this.tail.then(async () => {
      this.closed = true;
      const thread = await this.thread.catch(ignore);
      await thread?.close();
    });
    this.tail = turn.catch(ignore);
    return turn;
  }

  private current(): Promise<PGliteThread> {
    if (this.closed) return Promise.reject(new Error('the embedded database is closed'));
    if (this.startFailed) this.thread = this.start();
    return this.thread;
  }

  private start(): Promise<PGliteThread> {
    this.startFailed = false;
    const started = PGliteThread.start(this.options, (lost) => this.replace(lost)).catch((error: unknown) => {
      this.startFailed = true;
      // The API answers 503 and the client retries; the next request tries to open the database again.
      throw connectionLostError(`the database could not be opened: ${error instanceof Error ? error.message : String(error)}`);
    });
    started.catch(ignore);
    return started;
  }

  private replace(lost: Error): void {
    if (this.closed) return;
    if (this.options.dataDir !== undefined) {
      this.thread = this.start();
      return;
    }
    // In memory the data went with the thread: every later statement fails rather than meet an empty database.
    this.thread = Promise.reject(lost);
    this.thread.catch(ignore);
  }
}
