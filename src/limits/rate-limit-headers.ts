/**
 * The IETF RateLimit header fields, as in draft-ietf-httpapi-ratelimit-headers-10 (September 2025): Structured
 * Field lists of quota policy items named by a quoted string.
 *   RateLimit-Policy: "default";q=600;w=60, "burst";q=100;w=10
 *   RateLimit: "default";r=599;t=60, "burst";r=99;t=10
 * `q` quota units (requests) per window, `w` window in seconds, `r` units remaining, `t` seconds until the
 * remaining quota resets.
 */
export interface Policy {
  name: string;
  /** Requests allowed per window. */
  quota: number;
  windowSeconds: number;
}

export interface PolicyState {
  policy: Policy;
  remaining: number;
  resetSeconds: number;
}

export function policyHeader(policies: readonly Policy[]): string {
  return policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', ');
}

export function stateHeader(states: readonly PolicyState[]): string {
  return states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`).join(', ');
}

/** Both fields for one response. */
export function rateLimitHeaders(policies: readonly Policy[], states: readonly PolicyState[]): Record<string, string> {
  return { 'ratelimit-policy': policyHeader(policies), ratelimit: stateHeader(states) };
}
