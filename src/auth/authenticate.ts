/**
 * Turns an `Authorization` header into the principal a request runs as. Key rows are cached for at most
 * `cacheMs` (default 2 s), so a revocation reaches every server process within that time.
 */
import type { Queryable } from '../db/types.js';
import { authErrors } from '../errors/auth.js';
import { parseApiKey, secretMatches } from './api-key-format.js';
import { findActiveKey, touchApiKey, type ActiveKey } from './api-key-store.js';

export interface Principal {
  /** Row id of the key (api_keys.id). */
  keyRowId: string;
  /** Public key id, safe to log. */
  keyId: string;
  organizationId: string;
  scopes: string[];
}

const TOUCH_INTERVAL_MS = 60_000;

export class Authenticator {
  private readonly cache = new Map<string, { key: ActiveKey | undefined; fetchedAt: number }>();
  private readonly touchedAt = new Map<string, number>();

  constructor(
    private readonly db: Queryable,
    private readonly cacheMs = 2_000,
  ) {}

  async authenticate(header: string | undefined): Promise<Principal> {
    if (header === undefined || header.trim() === '') throw authErrors.missingKey();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw authErrors.malformedHeader();
    const parsed = parseApiKey(match[1]!);
    if (!parsed) throw authErrors.invalidKey();
    const key = await this.lookup(parsed.keyId);
    if (!key || !secretMatches(parsed.secret, key.secretHash)) throw authErrors.invalidKey();
    this.touch(key.id);
    return { keyRowId: key.id, keyId: key.keyId, organizationId: key.organizationId, scopes: key.scopes };
  }

  private async lookup(keyId: string): Promise<ActiveKey | undefined> {
    const now = Date.now();
    const cached = this.cache.get(keyId);
    if (cached && now - cached.fetchedAt < this.cacheMs) return cached.key;
    const key = await findActiveKey(this.db, keyId);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(keyId, { key, fetchedAt: now });
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
