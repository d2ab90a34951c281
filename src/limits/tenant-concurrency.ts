/**
 * A cap on the database work one organization runs at once in this process, so that one tenant's expensive requests
 * cannot hold every pooled connection while the other tenants wait for one. Every tenant transaction takes a slot of
 * its organization before it asks the database for a connection: at most `maxActive` run at once, up to `maxQueued`
 * more wait in arrival order for at most `maxWaitMs`, and anything beyond is refused with 429 `SK430` and
 * `Retry-After`. A waiting request holds no connection, so on the embedded database (one connection) a wait cannot
 * deadlock. The cap is per organization and process: several busy organizations together are still bounded only by
 * the pool. See docs/deployment.md.
 *
 * The cap belongs to the app, the tenant transaction to the routes: `buildApp` registers a limiter for its database
 * (`limitTenantConcurrency`, lifted when the app closes) and every tenant transaction on that database runs through
 * `inTenantSlot`. Code that uses the database without the app (the CLI, the benchmark's direct side) is not capped.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/types.js';
import { tooManyConcurrentRequests } from '../errors/catalogue.js';

export interface TenantConcurrencyOptions {
  /** Transactions of one organization that run at once. */
  maxActive: number;
  /** Transactions of one organization that may wait for a slot; beyond that they are refused at once. */
  maxQueued: number;
  /** Longest wait for a slot (ms); then the request is refused. */
  maxWaitMs: number;
}

interface Tenant {
  active: number;
  /** Waiting transactions in arrival order; each resolves when handed a slot. */
  queue: (() => void)[];
}

export class TenantConcurrency {
  private readonly tenants = new Map<string, Tenant>();

  constructor(readonly options: TenantConcurrencyOptions) {
    if (!Number.isSafeInteger(options.maxActive) || options.maxActive < 1) throw new RangeError(`maxActive must be a positive integer, got ${options.maxActive}`);
    if (!Number.isSafeInteger(options.maxQueued) || options.maxQueued < 0) throw new RangeError(`maxQueued must be a non-negative integer, got ${options.maxQueued}`);
  }

  /** Runs `work` in a slot of `organizationId`, waiting for one if need be; throws SK430 when none comes. */
  async run<T>(organizationId: string, work: () => Promise<T>): Promise<T> {
    await this.acquire(organizationId);
    try {
      return await work();
    } finally {
      this.release(organizationId);
    }
  }

  private acquire(organizationId: string): Promise<void> {
    let tenant = this.tenants.get(organizationId);
    if (!tenant) {
      tenant = { active: 0, queue: [] };
      this.tenants.set(organizationId, tenant);
    }
    const { maxActive, maxQueued, maxWaitMs } = this.options;
    if (tenant.active < maxActive) {
      tenant.active += 1;
      return Promise.resolve();
    }
    if (tenant.queue.length >= maxQueued) return Promise.reject(tooManyConcurrentRequests(maxActive, maxQueued, undefined));
    const queue = tenant.queue;
    return new Promise((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(granted), 1);
        reject(tooManyConcurrentRequests(maxActive, maxQueued, maxWaitMs));
      }, maxWaitMs);
      queue.push(granted);
    });
  }

  private release(organizationId: string): void {
    const tenant = this.tenants.get(organizationId);
    if (!tenant) return;
    const next = tenant.queue.shift();
    // The slot passes straight to the next waiter, so `active` stays as it is.
    if (next) return next();
    tenant.active -= 1;
    if (tenant.active === 0) this.tenants.delete(organizationId);
  }
}

const limiters = new WeakMap<Database, TenantConcurrency>();

/** Caps the tenant transactions `app` runs on `db` until the app closes. */
export function limitTenantConcurrency(app: FastifyInstance, db: Database, options: TenantConcurrencyOptions): TenantConcurrency {
  const limiter = new TenantConcurrency(options);
  limiters.set(db, limiter);
  app.addHook('onClose', async () => {
    if (limiters.get(db) === limiter) limiters.delete(db);
  });
  return limiter;
}

/** Runs a tenant transaction's `work` under the cap registered for `db`, if any. */
export function inTenantSlot<T>(db: Database, organizationId: string, work: () => Promise<T>): Promise<T> {
  const limiter = limiters.get(db);
  return limiter ? limiter.run(organizationId, work) : work();
}
