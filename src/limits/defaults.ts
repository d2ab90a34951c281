/** Defaults of the limits that are configured elsewhere (docs/design.md#limits). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_RATE_LIMIT_BURST = 100;
/** Percentage of an organization's concurrency slots and queue that public (publishable-key) traffic may take. */
export const DEFAULT_TENANT_PUBLIC_SHARE = 50;
