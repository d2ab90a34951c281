/**
 * Turns an `Authorization` header into the principal a request runs as. Key rows are cached for at most
 * `cacheMs` (default 2 s), so a revocation reaches every server process within that time.
 *
 * A key id that matches no usable key (unknown, revoked or expired) is remembered for `unknownCacheMs` (default
 * 5 s) in a cache of its own: repeating it costs no lookup, and a flood of made-up key ids neither reaches the
 * database more than once per id and window nor pushes the keys in use out of their cache. So a key created with an
 * id that was looked up just before works within those 5 s (ids are 12 random characters: it happens to tests, not
 * to clients). Concurrent requests with the same key id share one lookup.
 */
import type { Queryable } from '../db/types.js';
import { authErrors } from '../errors/auth.js';
import { parseApiKey, secretMatches } from './api-key-format.js';
import { findActiveKey, touchApiKey, type ActiveKey } from './api-key-store.js';
import { bearerToken } from './bearer.js';
import type { Principal } from './principal.js';

const TOUCH_INTERVAL_MS = 60_000;

/** Entries per cache; past that the oldest goes. */
const MAX_CACHED_IDS = 10_000;

export const DEFAULT_KEY_CACHE_MS = 2_000;
export const DEFAULT_UNKNOWN_KEY_CACHE_MS = 5_000;

/** Keeps `value` under `key` as the newest entry (a Map iterates in insertion order), dropping the oldest beyond the bound. */
function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > MAX_CACHED_IDS) cache.delete(cache.keys().next().value!);
}

export class Authenticator {
  private readonly known = new Map<string, { key: ActiveKey; fetchedAt: number }>();
  /** Key ids without a usable key, with when that was found. */
  private readonly unknown = new Map<string, number>();
  private readonly lookups = new Map<string, Promise<ActiveKey | undefined>>();
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly db: Queryable,
    private readonly cacheMs = DEFAULT_KEY_CACHE_MS,
    private readonly unknownCacheMs = DEFAULT_UNKNOWN_KEY_CACHE_MS,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    if (header === undefined || header.trim() === '') throw authErrors.missingKey();
    const token = bearerToken(header);
    if (token === undefined) throw authErrors.malformedHeader();
    const parsed = parseApiKey(token);
    if (!parsed) throw authErrors.invalidKey();
    const key = await this.lookup(parsed.keyId);
    if (!key || !secretMatches(parsed.secret, key.secretHash)) throw authErrors.invalidKey();
    this.touch(key.id);
    return { keyRowId: key.id, keyId: key.keyId, organizationId: key.organizationId, scopes: key.scopes };
  }

  private lookup(keyId: string): Promise<ActiveKey | undefined> | ActiveKey | undefined {
    const now = Date.now();
    const cached = this.known.get(keyId);
    if (cached && now - cached.fetchedAt < this.cacheMs) return cached.key;
    const missing = this.unknown.get(keyId);
    if (missing !== undefined && now - missing < this.unknownCacheMs) return undefined;
    let pending = this.lookups.get(keyId);
    if (!pending) {
      pending = this.fetch(keyId, now).finally(() => this.lookups.delete(keyId));
      this.lookups.set(keyId, pending);
    }
    return pending;
  }

  private async fetch(keyId: string, now: number): Promise<ActiveKey | undefined> {
    const key = await findActiveKey(this.db, keyId);
    if (key) {
      this.unknown.delete(keyId);
      remember(this.known, keyId, { key, fetchedAt: now });
    } else {
      this.known.delete(keyId);
      remember(this.unknown, keyId, now);
    }
    return key;
  }

  /** `last_used_at` off the request path, at most once a minute per key and process. */
  private touch(id: string): void {
    const now = Date.now();
    if (now - (this.touchedAt.get(id) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.touchedAt.set(id, now);
    touchApiKey(this.db, id).catch(() => this.touchedAt.delete(id));
  }
}
