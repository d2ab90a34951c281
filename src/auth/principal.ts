/**
 * Who a request runs as: its API key, and the key's organization and scopes — or a dashboard user's session
 * (src/auth/session-authenticate.ts), whose member role and permissions are expressed as the same scopes.
 */
export interface Principal {
  /** Row id of the key (api_keys.id); null for a dashboard session. */
  keyRowId: string | null;
  /** Public key id, safe to log; `session:<first characters of the session id>` for a dashboard session. */
  keyId: string;
  organizationId: string;
  scopes: string[];
  /** The dashboard user of a session, whom the logs record as acting (booking_updates.user_id, …). */
  userId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's key is authenticated (src/auth/authorize.ts); read by the request and access logs. */
    principal: Principal | undefined;
  }
}
