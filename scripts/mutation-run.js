#!/usr/bin/env node
// Mutation testing: one Stryker run per module of scripts/mutation-modules.js, then the per-module thresholds.
//
//   node scripts/mutation-run.js            incremental, for every module whose results are committed in
//                                           stryker-incremental/: re-tests only mutants whose code or tests changed
//                                           since then (what `npm test` runs); modules without committed results are
//                                           named and left out, since a first run of one takes far longer than CI allows
//   node scripts/mutation-run.js --all      the same for every module, with or without committed results
//   node scripts/mutation-run.js --full     every mutant again, and rewrites stryker-incremental/ (`npm run mutate`)
//   ... [module ...]                        only these modules (names as in scripts/mutation-modules.js)
//
// An incremental run in which none of the files Stryker diffs (the mutated files and the test files stored in the
// committed results, and no test file added) has changed leaves out the TypeScript checker: starting it type-checks
// all of src/ (minutes on a loaded machine, against 10 to 40 s for the rest of such a run), and every result is
// reused, so it would check nothing. As soon as one of them changed, the checker runs as in a full run.
//
// Reports: reports/mutation/<module>.html (each mutant, with the tests that ran it) and .json.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MUTATION_MODULES, incrementalFileOf, mutationModule } from './mutation-modules.js';
import { checkThresholds } from './mutation-thresholds.js';

const args = process.argv.slice(2);
const full = args.includes('--full');
const all = full || args.includes('--all');
const names = args.filter((arg) => !arg.startsWith('--'));
const baselined = (module) => existsSync(incrementalFileOf(module.name));
const modules = names.length > 0 ? names.map(mutationModule) : MUTATION_MODULES.filter((module) => all || baselined(module));
const waiting = MUTATION_MODULES.filter((module) => !modules.includes(module) && !baselined(module));
if (names.length === 0 && waiting.length > 0) {
  console.log(`mutation testing: no committed results yet for ${waiting.map((module) => module.name).join(', ')} (npm run mutate -- <module> makes them)`);
}
/** Whether the committed results of `module` match its files as they are: then an incremental run re-tests nothing. */
function unchangedSinceResults(module) {
  const results = JSON.parse(readFileSync(incrementalFileOf(module.name), 'utf8'));
  const stored = { ...results.files, ...results.testFiles };
  const same = Object.entries(stored).every(([path, { source }]) => existsSync(path) && readFileSync(path, 'utf8') === source);
  // A glob (outbound's tests) cannot be checked for new files here; a listed file must be among the stored ones.
  const listed = [...module.mutate, ...module.tests].filter((path) => !path.includes('*'));
  return same && listed.every((path) => path in stored);
}

const corePackage = createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json');
const stryker = join(dirname(corePackage), 'bin', 'stryker.js');

for (const module of modules) {
  const reuseAll = !full && baselined(module) && unchangedSinceResults(module);
  const mode = full ? 'every mutant' : reuseAll ? 'incremental, nothing changed: no type checker' : 'incremental';
  console.log(`\n> mutation testing: ${module.name} (${module.mutate.join(', ')}), ${mode}`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [stryker, 'run', 'stryker.config.mjs', '--incremental', ...(full ? ['--force'] : []), ...(reuseAll ? ['--checkers', ''] : [])],
    { stdio: 'inherit', env: { ...process.env, STAYKIT_MUTATION_MODULE: module.name } },
  );
  console.log(`  ${module.name}: ${Math.round((Date.now() - started) / 1000)} s`);
  if (result.status !== 0) {
    console.error(`Stryker failed on module ${module.name} (exit ${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

console.log('\n> mutation scores');
process.exitCode = checkThresholds(modules) ? 0 : 1;
