// StrykerJS configuration for one module of scripts/mutation-modules.js, named by STAYKIT_MUTATION_MODULE.
// `npm run mutate` (every module, from scratch) and `npm test` (incremental) set it for each module in turn;
// by hand: `STAYKIT_MUTATION_MODULE=auth npx stryker run --incremental`. See docs/testing.md.
import { incrementalFileOf, mutationModule, reportFileOf } from './scripts/mutation-modules.js';

const name = process.env.STAYKIT_MUTATION_MODULE;
if (!name) throw new Error('set STAYKIT_MUTATION_MODULE to the module to mutate (or run `npm run mutate`)');
const module = mutationModule(name);

// The database tests of a mutation run use PGlite alone: one backend is enough to tell a mutant from the original,
// and a PostgreSQL database per test file and mutant would cost minutes. Stryker's workers inherit this.
process.env.STAYKIT_TEST_BACKENDS = 'pglite';
delete process.env.TEST_DATABASE_URL;

export default {
  mutate: module.mutate,
  testFiles: module.tests,
  // The tap runner with names that stay the same between runs (incremental mode needs them): see the file.
  testRunner: 'tap-stable-names',
  appendPlugins: ['./scripts/mutation-tap-runner.js'],
  tap: {
    // Each test file runs as `node --import tsx file.test.ts`: node:test prints TAP, Stryker reads it.
    nodeArgs: ['--import', 'tsx', '--test-reporter=tap', '-r', '{{hookFile}}', '{{testFile}}'],
    forceBail: true,
  },
  coverageAnalysis: 'perTest',
  // Mutants that do not compile are dropped before any test runs. The checker type-checks src/ alone: the whole
  // project (tests included) made it three times slower, and the checker is what a full run waits on. An incremental
  // run of scripts/mutation-run.js in which nothing has changed turns it off (`--checkers ''`; see there why).
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.stryker.json',
  // Two type-checker processes and one test runner while mutants are being checked, then three test runners.
  concurrency: 3,
  // A generous absolute margin: the CI machine is shared, and a slow run must not pass for a killed mutant.
  timeoutMS: 15_000,
  incrementalFile: incrementalFileOf(module.name),
  reporters: ['json', 'html', 'progress-append-only'],
  jsonReporter: { fileName: reportFileOf(module.name, 'json') },
  htmlReporter: { fileName: reportFileOf(module.name, 'html') },
  ignorePatterns: ['bench', 'docs', 'stryker-incremental', '.staykit', 'dist'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
