/**
 * What every PostgreSQL session of the pool has set, and how it gets there: as startup parameters on a connection of
 * our own, or transaction-locally with each BEGIN behind a transaction-mode pooler, whose server sessions are ours only
 * between BEGIN and COMMIT (docs/scaling.md#connection-pooler).
 */
import type { PipelineStatement } from './postgres-pipeline.js';

/**
 * The settings every session has: the time zone, the statement timeout when set, and — with named statements —
 * `plan_cache_mode = force_custom_plan`. A named statement then still skips parsing and analysis, but is planned for
 * each execution's values as an unnamed one is: PostgreSQL's default (a generic plan after five executions, when
 * it looks no costlier) measured 4.5 times the CPU of a custom plan on an embed filtered by `id=in.(…)`, and a
 * request's values (a tenant's filter, a page) are exactly what a plan should see.
 */
export function sessionSettings(statementTimeoutMs: number | undefined, customPlans: boolean): Record<string, string> {
  return {
    TimeZone: 'UTC',
    ...(statementTimeoutMs === undefined ? {} : { statement_timeout: String(statementTimeoutMs) }),
    ...(customPlans ? { plan_cache_mode: 'force_custom_plan' } : {}),
  };
}

/** The settings as startup parameters (`-c name=value`). */
export function startupOptions(settings: Record<string, string>): string {
  return Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ');
}

/** The settings made transaction-local, sent with each BEGIN (a pooler's sessions are not ours to set). */
export function transactionSettings(settings: Record<string, string>): PipelineStatement {
  const entries = Object.entries(settings);
  return {
    text: `SELECT ${entries.map((_, index) => `set_config($${2 * index + 1}, $${2 * index + 2}, true)`).join(', ')}`,
    values: entries.flat(),
    discard: true,
  };
}
