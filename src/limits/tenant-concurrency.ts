/**
 * A cap on the database work one organization runs at once in this process, so that one tenant's expensive requests
 * cannot hold every pooled connection while the other tenants wait for one. Every tenant transaction takes a slot of
 * its organization before it asks the database for a connection: at most `maxActive` run at once, up to `maxQueued`
 * more wait in arrival order for at most `maxWaitMs`, and anything beyond is refused with 429 `SK430` and
 * `Retry-After`. A waiting request holds no connection, so on the embedded database (one connection) a wait cannot
 * deadlock. The cap is per organization and process: several busy organizations together are still bounded only by
 * the pool. See docs/deployment.md.
 *
 * Public traffic (publishable keys: anonymous visitors of the organization's widget and booking site) has a budget
 * of its own within the organization's: a share of its slots and of its queue (`publicShare`), so a burst of
 * visitors can never take the slots the organization's staff and integrations need. Those may use every slot the
 * public leaves free, and a freed slot goes to their waiters before the public's. See docs/limits.md.
 *
 * The cap belongs to the app, the tenant transaction to the routes: `buildApp` registers a limiter for its database
 * (`limitTenantConcurrency`, lifted when the app closes) and every tenant transaction on that database runs through
 * `inTenantSlot`. Code that uses the database without the app (the CLI, the benchmark's direct side) is not capped.
 */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../auth/principal.js';
import { isPublishableKey } from '../auth/publishable-key-format.js';
import type { Database } from '../db/types.js';
import { tooManyConcurrentRequests } from '../errors/catalogue.js';
import { DEFAULT_TENANT_PUBLIC_SHARE } from './defaults.js';

/**
 * Whose request a slot serves: the organization's own people and integrations (dashboard sessions, secret keys), or
 * the public (publishable keys: the widget's and the booking site's anonymous visitors).
 */
export type Traffic = 'organization' | 'public';

export interface TenantConcurrencyOptions {
  /** Transactions of one organization that run at once. */
  maxActive: number;
  /** Transactions of one organization that may wait for a slot; beyond that they are refused at once. */
  maxQueued: number;
  /** Longest wait for a slot (ms); then the request is refused. */
  maxWaitMs: number;
  /**
   * Percentage of `maxActive` (at least one slot) and of `maxQueued` that public traffic may take; the rest of the
   * slots stay free for the organization's own traffic, which may take all of them. Default 50.
   */
  publicShare?: number;
}

interface Budget {
  maxActive: number;
  maxQueued: number;
}

interface Lane {
  active: number;
  /** Waiting transactions in arrival order; each starts when called. */
  queue: (() => void)[];
}

type Tenant = Record<Traffic, Lane>;

/** The order in which waiters get a freed slot: the organization's own first. */
const TRAFFIC_PRIORITY: readonly Traffic[] = ['organization', 'public'];

export class TenantConcurrency {
  private readonly tenants = new Map<string, Tenant>();
  private readonly budgets: Readonly<Record<Traffic, Budget>>;

  constructor(readonly options: TenantConcurrencyOptions) {
    const { maxActive, maxQueued, publicShare = DEFAULT_TENANT_PUBLIC_SHARE } = options;
    if (!Number.isSafeInteger(maxActive) || maxActive < 1) throw new RangeError(`maxActive must be a positive integer, got ${maxActive}`);
    if (!Number.isSafeInteger(maxQueued) || maxQueued < 0) throw new RangeError(`maxQueued must be a non-negative integer, got ${maxQueued}`);
    if (!Number.isSafeInteger(publicShare) || publicShare < 1 || publicShare > 100) throw new RangeError(`publicShare must be an integer from 1 to 100, got ${publicShare}`);
    this.budgets = {
      organization: { maxActive, maxQueued },
      public: { maxActive: Math.max(1, Math.floor((maxActive * publicShare) / 100)), maxQueued: Math.floor((maxQueued * publicShare) / 100) },
    };
  }

  /** Runs `work` in a slot of `organizationId`, waiting for one if need be; throws SK430 when none comes. */
  async run<T>(organizationId: string, work: () => Promise<T>, traffic: Traffic = 'organization'): Promise<T> {
    await this.acquire(organizationId, traffic);
    try {
      return await work();
    } finally {
      this.release(organizationId, traffic);
    }
  }

  /** A slot is free for `traffic` when the organization runs fewer than maxActive and `traffic` fewer than its budget. */
  private canStart(tenant: Tenant, traffic: Traffic): boolean {
    return tenant.organization.active + tenant.public.active < this.options.maxActive && tenant[traffic].active < this.budgets[traffic].maxActive;
  }

  private acquire(organizationId: string, traffic: Traffic): Promise<void> {
    let tenant = this.tenants.get(organizationId);
    if (!tenant) {
      tenant = { organization: { active: 0, queue: [] }, public: { active: 0, queue: [] } };
      this.tenants.set(organizationId, tenant);
    }
    const lane = tenant[traffic];
    const { maxActive, maxQueued } = this.budgets[traffic];
    if (this.canStart(tenant, traffic)) {
      lane.active += 1;
      return Promise.resolve();
    }
    if (lane.queue.length >= maxQueued) return Promise.reject(tooManyConcurrentRequests(maxActive, maxQueued, undefined));
    const { maxWaitMs } = this.options;
    return new Promise((resolve, reject) => {
      const granted = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        lane.queue.splice(lane.queue.indexOf(granted), 1);
        reject(tooManyConcurrentRequests(maxActive, maxQueued, maxWaitMs));
      }, maxWaitMs);
      lane.queue.push(granted);
    });
  }

  private release(organizationId: string, traffic: Traffic): void {
    const tenant = this.tenants.get(organizationId);
    if (!tenant) return;
    tenant[traffic].active -= 1;
    for (const next of TRAFFIC_PRIORITY) {
      const lane = tenant[next];
      while (lane.queue.length > 0 && this.canStart(tenant, next)) {
        lane.active += 1;
        lane.queue.shift()!();
      }
    }
    if (TRAFFIC_PRIORITY.every((next) => tenant[next].active === 0 && tenant[next].queue.length === 0)) this.tenants.delete(organizationId);
  }
}

/** Publishable keys' requests are public traffic (their principal's key id is the `pk_` key itself). */
export function trafficOf(principal: Pick<Principal, 'keyId'>): Traffic {
  return isPublishableKey(principal.keyId) ? 'public' : 'organization';
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

/** Runs a tenant transaction's `work` under the cap registered for `db`, if any, in the budget of its `traffic`. */
export function inTenantSlot<T>(db: Database, organizationId: string, work: () => Promise<T>, traffic: Traffic = 'organization'): Promise<T> {
  const limiter = limiters.get(db);
  return limiter ? limiter.run(organizationId, work, traffic) : work();
}
