// The modules under mutation testing: where a wrong branch is a real bug. Each is mutated in a Stryker run of
// its own against only the tests that cover it, so a surviving mutant in one module never drags another
// module's slow database tests along. `threshold` is the lowest mutation score (percent, killed + timed out
// over all valid mutants) `npm test` accepts; raise it when the tests get better, never lower it to pass.
//
// Tests: the pure unit tests first (no database); where a module is only reached through HTTP, a few database
// test files, which the mutation run executes on PGlite only (see stryker.config.mjs).

/** @typedef {{ name: string, mutate: string[], tests: string[], threshold: number }} MutationModule */

/** @type {MutationModule[]} */
export const MUTATION_MODULES = [
  {
    name: 'booking',
    mutate: ['src/booking/rules.ts', 'src/booking/pricing.ts', 'src/booking/timeline.ts'],
    // Pure functions, so pure unit tests: the stay rules, priceStay (services, coupons, taxes) and the day flags.
    // test/booking/quote.test.ts prices the same through the database, at minutes per mutant.
    tests: [
      'test/booking/rules.unit.test.ts',
      'test/booking/rules-boundaries.unit.test.ts',
      'test/booking/stay-rules.unit.test.ts',
      'test/booking/pricing.unit.test.ts',
    ],
    // 93.8 % on the baseline run of 2026-11-25 at 8c89f27 (599 valid mutants).
    threshold: 93,
  },
  {
    name: 'auth',
    // What decides who may do what, without a database: key and header shapes, scopes, a member's grants, the
    // /auth body checks, the login budgets, the session cookie's attributes. Not mutated: the files that only work
    // on a migrated database (authenticate.ts, authorize.ts, the *-store.ts, session-authenticate.ts,
    // session-routes.ts, session-setup.ts, publishable-authenticate.ts), whose tests (test/http/auth.test.ts,
    // test/users/*) start one and take a minute and a half per mutant on PGlite; principal.ts is a type.
    mutate: [
      'src/auth/api-key-format.ts',
      'src/auth/bearer.ts',
      'src/auth/publishable-key-format.ts',
      'src/auth/scopes.ts',
      'src/auth/session-cookie.ts',
      'src/auth/session-errors.ts',
      'src/auth/session-input.ts',
      'src/auth/session-login-limits.ts',
      'src/auth/session-permissions.ts',
    ],
    tests: ['test/auth/auth.unit.test.ts', 'test/auth/login-limits.unit.test.ts', 'test/auth/scopes.test.ts', 'test/auth/api-key-format.test.ts'],
    // 98.06 % on 2026-11-25 (206 valid mutants; see docs/testing.md).
    threshold: 98,
  },
  {
    name: 'outbound',
    mutate: ['src/outbound/addresses.ts'],
    tests: ['test/outbound/*.test.ts'],
    // 83.3 % on the baseline run of 2026-11-25 (153 valid mutants; see docs/testing.md).
    threshold: 83,
  },
  {
    name: 'webhooks',
    mutate: ['src/webhooks/signature.ts', 'src/webhooks/retry.ts'],
    tests: ['test/webhooks/signature.test.ts', 'test/webhooks/retry.test.ts'],
    // 75.0 % on the baseline run of 2026-11-25 (88 valid mutants).
    threshold: 75,
  },
  {
    name: 'limits',
    // The rate limits: policies (the burst window's rounding), whose budget a request spends, the RateLimit fields,
    // the failed-authentication budget. limits.unit.test.ts also covers body-guard.ts, request-size.ts and
    // tenant-concurrency.ts, which are not mutated yet: with them the module has 423 mutants, and their first full
    // run did not fit on the shared 2-core machine (about 3 mutants a minute; add them with `npm run mutate -- limits`
    // on a quiet one). Not mutated on purpose: redis-counters.ts (connection and warning plumbing, whose mutants only
    // change log lines and reconnect timing), errors.ts (message text), defaults.ts and index.ts (constants,
    // re-exports). test/limits/*.test.ts check the same limits through `buildApp` and real processes, at about a
    // minute per mutant; the unit file runs them on a bare Fastify app in seconds.
    mutate: ['src/limits/auth-failures.ts', 'src/limits/rate-limit-headers.ts', 'src/limits/rate-limit-key.ts', 'src/limits/rate-limit.ts'],
    tests: ['test/limits/limits.unit.test.ts', 'test/limits/rate-limit-policies.unit.test.ts'],
    // 87.39 % on 2026-11-25 (111 valid mutants; 83.78 % on the first run; see docs/testing.md).
    threshold: 87,
  },
  {
    name: 'query-parse',
    // The regex-safety check that keeps a match/imatch pattern from holding a connection for the statement timeout.
    // parse.unit.test.ts and parse.test.ts also pin down filters and logic trees (operators, quoting, the nesting
    // limit), the query string, order and select, which are not mutated yet: filter.ts alone adds about 340 mutants,
    // more than a first full run fitted on the shared 2-core machine (add it with `npm run mutate -- query-parse`).
    mutate: ['src/query/parse/regex-safety.ts'],
    tests: ['test/query/regex-safety.test.ts', 'test/query/parse.unit.test.ts', 'test/query/regex-brackets.unit.test.ts'],
    // 88.82 % on 2026-11-25 with regex-brackets.unit.test.ts (161 valid mutants; 67.70 % before; see docs/testing.md).
    threshold: 88,
  },
  {
    name: 'query-sql',
    // The one way identifiers and values enter SQL text (quote.ts) and every filter operator's SQL (condition.ts).
    // The statement builders (read.ts, mutate.ts, statement.ts) are not mutated: what they build is checked by
    // what the statements return on a database (test/query/engine-*.test.ts, minutes per mutant), and they change
    // with most engine features, which would re-test their mutants in nearly every CI run.
    mutate: ['src/query/sql/quote.ts', 'src/query/sql/condition.ts'],
    tests: ['test/query/sql.unit.test.ts', 'test/query/plan-sql.test.ts'],
    // 100 % on the baseline run of 2026-11-25 (149 valid mutants; see docs/testing.md).
    threshold: 100,
  },
];

/** The module called `name`, or an error that lists the known ones. */
export function mutationModule(name) {
  const found = MUTATION_MODULES.find((module) => module.name === name);
  if (!found) {
    const known = MUTATION_MODULES.map((module) => module.name).join(', ');
    throw new Error(`unknown mutation module "${name}" (known: ${known})`);
  }
  return found;
}

/** Where a module's incremental results live: committed, so a fresh CI clone re-tests only what changed. */
export const incrementalFileOf = (name) => `stryker-incremental/${name}.json`;

/** Where a module's JSON and HTML reports go (reports/ is not committed). */
export const reportFileOf = (name, extension) => `reports/mutation/${name}.${extension}`;
