/** Who a request runs as: its API key, and the key's organization and scopes. */
export interface Principal {
  /** Row id of the key (api_keys.id). */
  keyRowId: string;
  /** Public key id, safe to log. */
  keyId: string;
  organizationId: string;
  scopes: string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the request's key is authenticated (src/auth/authorize.ts); read by the request and access logs. */
    principal: Principal | undefined;
  }
}
