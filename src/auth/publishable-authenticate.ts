/**
 * Publishable keys to what they may reach, with the same caching as secret keys (src/auth/authenticate.ts): a key
 * found is kept for `cacheMs` (2 s), so a revocation or a change of the widget's listings or allowed origins reaches
 * every process within that time; a token that matches nothing is remembered for `unknownCacheMs` (5 s). Concurrent
 * requests with the same token share one lookup. CORS preflights ask whether an origin is allowed anywhere, cached
 * the same way.
 */
import type { Queryable } from '../db/types.js';
import { authErrors } from '../errors/auth.js';
import { DEFAULT_KEY_CACHE_MS, DEFAULT_UNKNOWN_KEY_CACHE_MS } from './authenticate.js';
import { isPublishableKey } from './publishable-key-format.js';
import { findActivePublishableKey, originAllowedAnywhere, type ActivePublishableKey } from './publishable-key-store.js';

const MAX_CACHED = 10_000;

/** A bounded cache of lookups by string, with a lifetime per kind of answer, sharing lookups in flight. */
class LookupCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly pending = new Map<string, Promise<V>>();

  constructor(private readonly lifetimeMs: (value: V) => number, private readonly load: (key: string) => Promise<V>) {}

  get(key: string): Promise<V> | V {
    const now = Date.now();
    const cached = this.entries.get(key);
    if (cached && now - cached.at < this.lifetimeMs(cached.value)) return cached.value;
    let lookup = this.pending.get(key);
    if (!lookup) {
      lookup = this.load(key).then((value) => {
        this.entries.delete(key);
        this.entries.set(key, { value, at: now });
        if (this.entries.size > MAX_CACHED) this.entries.delete(this.entries.keys().next().value!);
        return value;
      }).finally(() => this.pending.delete(key));
      this.pending.set(key, lookup);
    }
    return lookup;
  }
}

export class PublishableKeys {
  private readonly keys: LookupCache<ActivePublishableKey | undefined>;
  private readonly origins: LookupCache<boolean>;

  constructor(db: Queryable, cacheMs = DEFAULT_KEY_CACHE_MS, unknownCacheMs = DEFAULT_UNKNOWN_KEY_CACHE_MS) {
    this.keys = new LookupCache((key) => (key ? cacheMs : unknownCacheMs), (token) => findActivePublishableKey(db, token));
    this.origins = new LookupCache(() => cacheMs, (origin) => originAllowedAnywhere(db, origin));
  }

  /** The active key of `token`, or undefined (never a database lookup for a token not shaped like one). */
  async find(token: string): Promise<ActivePublishableKey | undefined> {
    return isPublishableKey(token) ? this.keys.get(token) : undefined;
  }

  /** The active key of `token`; 401 SK401 when there is none. */
  async authenticate(token: string): Promise<ActivePublishableKey> {
    const key = await this.find(token);
    if (!key) throw authErrors.invalidKey();
    return key;
  }

  async originAllowedAnywhere(origin: string): Promise<boolean> {
    return this.origins.get(origin);
  }
}
