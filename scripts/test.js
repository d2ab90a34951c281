#!/usr/bin/env node
// `npm test`: typecheck, lint, no folder-level import cycles in src/ (scripts/folder-cycles.js), every test file
// under test/ with Node's own test runner (TypeScript through tsx), then mutation testing. With file arguments it
// runs only those files and skips the static checks and mutations.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function testFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return testFiles(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

function step(label, command, args) {
  console.log(`\n> ${label}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${label} failed`);
    process.exit(result.status ?? 1);
  }
}

const only = process.argv.slice(2);
if (only.length === 0) {
  step('typecheck (tsc --noEmit)', process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit']);
  // Each web app (web/<app>) is browser code with a tsconfig of its own (DOM, JSX, bundler resolution).
  for (const app of existsSync('web') ? readdirSync('web').sort() : []) {
    const project = join('web', app);
    if (existsSync(join(project, 'tsconfig.json'))) step(`typecheck ${project}`, process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', project]);
  }
  step('lint (eslint)', process.execPath, ['node_modules/eslint/bin/eslint.js', '.']);
  step('folder-level import cycles', process.execPath, ['scripts/folder-cycles.js']);
}
const files = only.length > 0 ? only : testFiles('test').sort();
// TAP as before, then ./test-summary-reporter.js: what failed and the slowest files, at the end of the output.
const reporters = ['--test-reporter=tap', '--test-reporter-destination=stdout', '--test-reporter=./scripts/test-summary-reporter.js', '--test-reporter-destination=stdout'];
step('tests', process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', ...reporters, ...files]);
// Mutation testing (StrykerJS) of the modules whose results are committed in stryker-incremental/, incrementally:
// only mutants whose code or covering tests changed since are run again. STAYKIT_TEST_MUTATION=0 leaves it out.
if (only.length === 0 && process.env.STAYKIT_TEST_MUTATION !== '0') {
  step('mutation testing (Stryker, incremental)', process.execPath, ['scripts/mutation-run.js']);
}
