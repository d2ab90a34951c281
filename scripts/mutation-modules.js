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
    // The unit tests reach the stay rules and the timeline; services, coupons and taxes are priced only in quotes.
    tests: ['test/booking/*.unit.test.ts', 'test/booking/quote.test.ts'],
    threshold: 0,
  },
  {
    name: 'auth',
    mutate: ['src/auth/*.ts'],
    tests: ['test/auth/*.test.ts', 'test/http/auth.test.ts'],
    threshold: 0,
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
    mutate: ['src/limits/*.ts'],
    tests: ['test/limits/*.test.ts'],
    threshold: 0,
  },
  {
    name: 'query-parse',
    mutate: ['src/query/parse/*.ts'],
    tests: ['test/query/parse.test.ts', 'test/query/plan-sql.test.ts'],
    threshold: 0,
  },
  {
    name: 'query-sql',
    mutate: ['src/query/sql/*.ts'],
    tests: ['test/query/plan-sql.test.ts', 'test/query/parse.test.ts'],
    threshold: 0,
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
