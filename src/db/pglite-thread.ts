/**
 * One worker thread running the embedded database (src/db/pglite-worker.ts), seen from the main thread: requests go
 * out one at a time, in order. The worker announces each statement that starts under a statement timeout, and the
 * timeout is enforced here, where the clock still runs while Postgres is busy.
 *
 * A statement that runs past the timeout fails at once with 57014, as on PostgreSQL. What happens to the statement
 * itself depends on where the data lives:
 * - in a data folder, the thread is terminated: that stops Postgres mid-statement, and the next thread opens the
 *   folder again with Postgres' crash recovery, which keeps every committed transaction and drops the rest;
 * - in memory, terminating would lose the database, so the statement runs on to its end and later requests wait
 *   for it; its result is dropped.
 */
import { Worker } from 'node:worker_threads';
import {
  connectionLostError,
  deserializeError,
  failedStatement,
  statementTimeoutError,
  UnsendableRequestError,
  type WorkerMessage,
  type WorkerOptions,
  type WorkerRequest,
  type WorkerStarted,
} from './pglite-protocol.js';
import type { QueryResult, Row } from './types.js';

/**
 * The worker module, next to this one: compiled JavaScript when Staykit runs from dist/ (bin/staykit.js), TypeScript
 * when it runs from the sources. A thread does not inherit a loader registered at run time, so for the sources it
 * registers tsx first. It gets none of the parent's flags either (`execArgv: []`), so `node --import tsx` does not
 * register tsx twice.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const WORKER_MODULE = new URL(FROM_SOURCES ? './pglite-worker.ts' : './pglite-worker.js', import.meta.url);
/** What a thread runs: the compiled module itself, or code (`eval`) that registers tsx and then imports the sources. */
const WORKER_SCRIPT = FROM_SOURCES
  ? `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then(({ register }) => { register(); return import(${JSON.stringify(WORKER_MODULE.href)}); });`
  : WORKER_MODULE;

interface Pending {
  request: WorkerRequest;
  resolve(result: QueryResult<Row> | undefined): void;
  reject(error: unknown): void;
  /** Answered already (cancelled by the timeout): the worker's reply is dropped. */
  answered: boolean;
}

export class PGliteThread {
  private readonly queue: Pending[] = [];
  private inFlight: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;
  private endedWith: Error | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly persistent: boolean,
    private readonly onEnd: (error: Error) => void,
  ) {
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'started') this.time(message.timeoutMs);
      else this.settle(message);
    });
    worker.on('error', (error) => this.end(connectionLostError(`the database thread failed: ${error.message}`)));
    worker.on('exit', () => this.end(connectionLostError('the database thread exited')));
    worker.unref();
  }

  /** Starts a thread on `options.dataDir` (undefined: in memory); `onEnd` is called once when it ends. */
  static async start(options: WorkerOptions, onEnd: (error: Error) => void): Promise<PGliteThread> {
    const worker = new Worker(WORKER_SCRIPT, { eval: FROM_SOURCES, workerData: options, execArgv: [] });
    const started = await new Promise<WorkerStarted>((resolve, reject) => {
      const exited = (code: number) => reject(new Error(`the database thread exited with code ${code} while opening`));
      worker.once('message', (message: WorkerStarted) => {
        worker.off('error', reject).off('exit', exited);
        resolve(message);
      });
      worker.once('error', reject).once('exit', exited);
    });
    if (!started.ready) {
      await worker.terminate();
      throw deserializeError(started.error);
    }
    return new PGliteThread(worker, options.dataDir !== undefined, onEnd);
  }

  /** Whether the thread is gone (cancelled, crashed or closed); every request then fails. */
  get ended(): boolean {
    return this.endedWith !== undefined;
  }

  run(request: WorkerRequest): Promise<QueryResult<Row> | undefined> {
    if (this.endedWith) return Promise.reject(this.endedWith);
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject, answered: false });
      this.sendNext();
    });
  }

  /** Closes the database cleanly (after the requests already queued) and ends the thread. */
  async close(): Promise<void> {
    if (this.endedWith) return;
    try {
      await this.run({ op: 'close' });
    } finally {
      // Ended before the thread's exit is seen, so that exit is not taken for a crash.
      this.endedWith = new Error('the embedded database is closed');
      await this.worker.terminate();
    }
  }

  private sendNext(): void {
    if (this.inFlight || this.endedWith) return;
    const next = this.queue.shift();
    if (!next) {
      // Idle, like an idle in-process database: the thread alone does not keep the process running.
      this.worker.unref();
      return;
    }
    try {
      this.worker.postMessage(next.request);
    } catch (error) {
      // A value that cannot be copied to the thread fails its own statement only.
      next.reject(new UnsendableRequestError(error));
      this.sendNext();
      return;
    }
    this.worker.ref();
    this.inFlight = next;
  }

  /** A statement of the request in flight started under a timeout: it is cancelled if it runs longer. */
  private time(timeoutMs: number): void {
    clearTimeout(this.timer);
    const pending = this.inFlight;
    if (pending && !pending.answered) this.timer = setTimeout(() => this.cancel(pending), timeoutMs);
  }

  private settle(reply: WorkerMessage & { type: 'reply' }): void {
    clearTimeout(this.timer);
    const pending = this.inFlight;
    this.inFlight = undefined;
    if (pending && !pending.answered) {
      if (reply.ok) {
        pending.resolve(reply.result);
      } else {
        const error = deserializeError(reply.error);
        failedStatement.set(error, reply.failedAt);
        pending.reject(error);
      }
    }
    this.sendNext();
  }

  private cancel(pending: Pending): void {
    pending.answered = true;
    pending.reject(statementTimeoutError());
    if (this.persistent) this.end(connectionLostError('a statement was cancelled by the statement timeout'));
  }

  private end(error: Error): void {
    if (this.endedWith) return;
    this.endedWith = error;
    clearTimeout(this.timer);
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.queue.splice(0)];
    this.inFlight = undefined;
    for (const pending of waiting) if (!pending.answered) pending.reject(error);
    void this.worker.terminate();
    this.onEnd(error);
  }
}
