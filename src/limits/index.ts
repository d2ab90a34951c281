/** Request limits: rate limits (per key or address), size limits, and the per-organization cap on concurrent database work. See docs/limits.md. */
export { rateLimit, rateLimitOptions, RequestLimiter, policiesFor, DEFAULT_EXCLUDED_PATHS, type RateLimitOptions } from './rate-limit.js';
export { requestSizeLimits, countEmbeds, DEFAULT_MAX_URL_BYTES, DEFAULT_MAX_EMBEDS, type RequestSizeOptions } from './request-size.js';
export { rateLimitKey } from './rate-limit-key.js';
export { limitTenantConcurrency, inTenantSlot, trafficOf, TenantConcurrency, type TenantConcurrencyOptions, type Traffic } from './tenant-concurrency.js';
export { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT_BURST, DEFAULT_TENANT_PUBLIC_SHARE } from './defaults.js';
