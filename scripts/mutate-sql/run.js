#!/usr/bin/env node
// `npm run mutate:sql [name ...]`: plants each change of ./mutations.js in turn and checks that its tests catch it.
//
// The project's src/, test/, bin/ and migrations/ are copied to a temporary directory (the working tree is never
// touched). For each change the copy gets one more migration, migrations/9999_planted_change.sql, so every test
// database, freshly migrated as usual, carries the change; then the change's test files run there. Caught: some
// test failed. Survived: all passed. Invalid: the planted migration itself failed to apply (fix the change).
// First a control run of the same test files without any change must pass, or nothing could be judged.
// Backends as for `npm test`: PGlite, and PostgreSQL when TEST_DATABASE_URL is set or one answers on 127.0.0.1:5432
// (STAYKIT_TEST_BACKENDS=pglite for PGlite alone). Exit code 1 when a change survived or was invalid.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLANTED_CHANGES } from './mutations.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const PLANTED_MIGRATION = '9999_planted_change';
const COPIED = ['src', 'test', 'bin', 'migrations', 'package.json', 'tsconfig.json'];

function selectedChanges(names) {
  if (names.length === 0) return PLANTED_CHANGES;
  return names.map((name) => {
    const change = PLANTED_CHANGES.find((candidate) => candidate.name === name);
    if (!change) {
      console.error(`unknown planted change "${name}"; known: ${PLANTED_CHANGES.map((known) => known.name).join(', ')}`);
      process.exit(2);
    }
    return change;
  });
}

function copyProject() {
  const copy = mkdtempSync(join(tmpdir(), 'staykit-mutate-sql-'));
  for (const entry of COPIED) cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Runs `files` with node:test in `dir`; the exit status, the output, and the names of the failing tests. */
function runTests(dir, files) {
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=tap', '--test-concurrency=2', '--test-timeout=300000', ...files],
    { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const output = `${result.stdout}\n${result.stderr}`;
  const failing = [...output.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((match) => match[1].trim());
  return { passed: result.status === 0, output, failing: [...new Set(failing)], seconds: Math.round((Date.now() - started) / 1000) };
}

function judge(copy, change) {
  const migration = join(copy, 'migrations', `${PLANTED_MIGRATION}.sql`);
  writeFileSync(migration, `-- planted by scripts/mutate-sql: ${change.change}\n${change.sql}\n`);
  try {
    const run = runTests(copy, change.tests);
    if (run.output.includes(`migration ${PLANTED_MIGRATION} failed`)) {
      const reason = run.output.match(new RegExp(`migration ${PLANTED_MIGRATION} failed: ([^'\\n]*)`))?.[1] ?? '';
      return { ...run, verdict: 'INVALID', detail: reason };
    }
    if (run.passed) return { ...run, verdict: 'SURVIVED', detail: 'every test passed' };
    const leaves = run.failing.filter((name) => !change.tests.some((file) => name.endsWith(file)));
    return { ...run, verdict: 'caught', detail: (leaves.length > 0 ? leaves : run.failing).slice(0, 2).join('; ') };
  } finally {
    unlinkSync(migration);
  }
}

/** The control run, then each planted change; the process exit code. */
function judgeAll(copy, changes) {
  const allTests = [...new Set(changes.flatMap((change) => change.tests))].sort();
  console.log(`control run (no planted change): ${allTests.join(' ')}`);
  const control = runTests(copy, allTests);
  if (!control.passed) {
    console.error(control.output);
    console.error(`the control run failed (${control.failing.slice(0, 3).join('; ')}): fix the tests first, a planted change cannot be judged`);
    return 2;
  }
  console.log(`  passed in ${control.seconds} s\n`);

  const results = [];
  for (const change of changes) {
    const result = judge(copy, change);
    results.push({ change, ...result });
    console.log(`${result.verdict.padEnd(8)} ${change.name} (${result.seconds} s): ${result.detail}`);
  }

  const caught = results.filter((result) => result.verdict === 'caught').length;
  console.log(`\n${caught} of ${results.length} planted changes caught`);
  for (const result of results.filter((r) => r.verdict !== 'caught')) {
    console.log(`  ${result.verdict}: ${result.change.name}: ${result.change.change} (tests: ${result.change.tests.join(', ')})`);
  }
  return caught === results.length ? 0 : 1;
}

const changes = selectedChanges(process.argv.slice(2));
const copy = copyProject();
try {
  process.exitCode = judgeAll(copy, changes);
} finally {
  rmSync(copy, { recursive: true, force: true });
}
