/**
 * The pool of worker threads for CPU-heavy work (docs/security.md#no-requests-work-on-the-event-loop): rendering
 * templates, drawing invoice PDFs — anything that would hold the event loop for more than a few milliseconds and so
 * make every other organization's requests wait. A task is a function exported by a module (a "task module", see
 * `taskModule`), run in a thread with a structured-cloneable input.
 *
 * Each organization has a budget of its own, as its database work does (src/limits/tenant-concurrency.ts):
 * - at most `perOrganization` of its tasks run at once, so one organization never holds every thread while the
 *   others wait (with the default two threads and one task each, another organization always finds a thread);
 * - at most `queuePerOrganization` more wait, for at most `taskTimeoutMs`; beyond that 429 SK683;
 * - a task that runs longer than `taskTimeoutMs` is stopped (its thread is terminated and replaced): 422 SK684.
 * A caller may give a task a longer limit for both (resizing a photo: a dashboard uploads several at once, each
 * taking seconds).
 * Freed threads go to the waiting organizations in turn (round-robin), not in arrival order, so an organization
 * that queued many tasks does not delay one that queued one.
 *
 * Threads start with the first task and end after a while without work: a server that renders nothing never
 * starts one.
 */
import { Piscina } from 'piscina';
import { computeBusy, computeTooLong } from './errors.js';

export interface ComputePoolOptions {
  /** Worker threads (`STAYKIT_COMPUTE_THREADS`). */
  threads: number;
  /** Tasks of one organization running at once (`STAYKIT_COMPUTE_PER_ORGANIZATION`). */
  perOrganization: number;
  /** Tasks of one organization waiting for a thread (`STAYKIT_COMPUTE_QUEUE`). */
  queuePerOrganization: number;
  /** Longest run of one task, and longest wait for a thread, in ms (`STAYKIT_COMPUTE_TIMEOUT`). */
  taskTimeoutMs: number;
  /** An idle thread ends after this long (ms). */
  idleTimeoutMs?: number;
}

/** A task: the module that exports it (a path, see `taskModule`) and the export's name. */
export interface ComputeTask<Input, Output> {
  module: string;
  name: string;
  /** Types only: what the task takes and gives back. */
  readonly types?: (input: Input) => Output;
}

/**
 * The path of the task module `name` (without extension) beside `callerUrl` (the caller's `import.meta.url`): the
 * compiled `.js` when Staykit runs from dist/, the `.ts` source when it runs through tsx.
 */
export function taskModule(callerUrl: string, name: string): string {
  const extension = callerUrl.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${name}${extension}`, callerUrl).pathname;
}

export function computeTask<Input, Output>(module: string, name: string): ComputeTask<Input, Output> {
  return { module, name };
}

/**
 * Threads running the sources need tsx registered before a `.ts` task module is imported; a thread inherits no
 * loader registered at run time, so its first module (piscina's default `filename`) registers it.
 */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const SOURCES_SETUP = new URL('./thread-from-sources.mjs', import.meta.url).pathname;

interface Tenant {
  running: number;
  waiting: Waiter[];
}

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

export class ComputePool {
  private threads: Piscina | undefined;
  private running = 0;
  private readonly tenants = new Map<string, Tenant>();
  /** Organizations in the order they get the next free thread. */
  private readonly turns: string[] = [];
  private closed = false;

  constructor(readonly options: ComputePoolOptions) {
    for (const [name, min] of [['threads', 1], ['perOrganization', 1], ['queuePerOrganization', 0], ['taskTimeoutMs', 1]] as const) {
      const value = options[name];
      if (!Number.isSafeInteger(value) || value < min) throw new RangeError(`${name} must be an integer ≥ ${min}, got ${value}`);
    }
  }

  /**
   * Runs `task` for `organizationId` in a thread; throws SK683 when the organization's queue is full or the wait
   * longer than `timeLimitMs`, SK684 when the run is (default: the pool's `taskTimeoutMs`).
   */
  async run<Input, Output>(organizationId: string, task: ComputeTask<Input, Output>, input: Input, timeLimitMs = this.options.taskTimeoutMs): Promise<Output> {
    if (this.closed) throw new Error('the compute pool is closed');
    await this.acquire(organizationId, timeLimitMs);
    try {
      return await this.execute(task, input, timeLimitMs);
    } finally {
      this.release(organizationId);
    }
  }

  /** Tasks running and waiting now, for /metrics and tests. */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const tenant of this.tenants.values()) waiting += tenant.waiting.length;
    return { running: this.running, waiting };
  }

  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads;
    this.threads = undefined;
    await threads?.destroy();
  }

  private tenant(organizationId: string): Tenant {
    let tenant = this.tenants.get(organizationId);
    if (!tenant) {
      tenant = { running: 0, waiting: [] };
      this.tenants.set(organizationId, tenant);
    }
    return tenant;
  }

  private canStart(tenant: Tenant): boolean {
    return this.running < this.options.threads && tenant.running < this.options.perOrganization;
  }

  private acquire(organizationId: string, waitLimitMs: number): Promise<void> {
    const tenant = this.tenant(organizationId);
    if (tenant.waiting.length === 0 && this.canStart(tenant)) {
      this.take(tenant);
      return Promise.resolve();
    }
    const { queuePerOrganization, perOrganization } = this.options;
    if (tenant.waiting.length >= queuePerOrganization) {
      this.forget(organizationId);
      return Promise.reject(computeBusy(perOrganization, queuePerOrganization, undefined));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.take(tenant);
          resolve();
        },
        timer: setTimeout(() => {
          tenant.waiting.splice(tenant.waiting.indexOf(waiter), 1);
          this.forget(organizationId);
          reject(computeBusy(perOrganization, queuePerOrganization, waitLimitMs));
        }, waitLimitMs),
      };
      tenant.waiting.push(waiter);
      if (!this.turns.includes(organizationId)) this.turns.push(organizationId);
    });
  }

  private take(tenant: Tenant): void {
    tenant.running += 1;
    this.running += 1;
  }

  private release(organizationId: string): void {
    const tenant = this.tenant(organizationId);
    tenant.running -= 1;
    this.running -= 1;
    this.dispatch();
    this.forget(organizationId);
  }

  /** Gives free threads to waiting organizations, one task each in turn. */
  private dispatch(): void {
    let looked = 0;
    while (this.running < this.options.threads && looked < this.turns.length) {
      const organizationId = this.turns.shift()!;
      const tenant = this.tenant(organizationId);
      if (tenant.waiting.length > 0 && this.canStart(tenant)) {
        tenant.waiting.shift()!.start();
        looked = 0;
      } else {
        looked += 1;
      }
      if (tenant.waiting.length > 0) this.turns.push(organizationId);
    }
  }

  /** Drops the bookkeeping of an organization with nothing running or waiting. */
  private forget(organizationId: string): void {
    const tenant = this.tenants.get(organizationId);
    if (!tenant || tenant.running > 0 || tenant.waiting.length > 0) return;
    this.tenants.delete(organizationId);
    const turn = this.turns.indexOf(organizationId);
    if (turn >= 0) this.turns.splice(turn, 1);
  }

  private pool(): Piscina {
    this.threads ??= new Piscina({
      filename: FROM_SOURCES ? SOURCES_SETUP : null,
      // Every thread this pool may need, and no more: fairness is decided above, so piscina's own queue stays empty.
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs ?? 30_000,
      // Not the parent's flags (e.g. `--import tsx` under the test runner): the sources' setup registers tsx once.
      execArgv: [],
    });
    return this.threads;
  }

  private async execute<Input, Output>(task: ComputeTask<Input, Output>, input: Input, timeLimitMs: number): Promise<Output> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeLimitMs);
    try {
      return (await this.pool().run(input, { filename: task.module, name: task.name, signal: controller.signal })) as Output;
    } catch (error) {
      if (controller.signal.aborted) throw computeTooLong(timeLimitMs);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
