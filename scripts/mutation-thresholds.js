#!/usr/bin/env node
// Mutation score per module, from the JSON reports of the last mutation run (reports/mutation/<module>.json):
// prints a table (each module, then its files) and exits 1 when a module scores below its threshold in
// scripts/mutation-modules.js. Stryker's own `thresholds.break` is one number for the whole run; this is one
// per module. `node scripts/mutation-thresholds.js [module ...]` checks the given modules only.
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { MUTATION_MODULES, mutationModule, reportFileOf } from './mutation-modules.js';

// Stryker's definitions: a mutant is detected when a test failed or timed out on it, undetected when every test
// passed or none ran it; mutants that do not compile or crash on load are not valid and do not count.
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function tally(mutants) {
  const count = (status) => mutants.filter((mutant) => mutant.status === status).length;
  const detected = mutants.filter((mutant) => DETECTED.has(mutant.status)).length;
  const valid = detected + mutants.filter((mutant) => UNDETECTED.has(mutant.status)).length;
  return {
    valid,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    score: valid === 0 ? 100 : (100 * detected) / valid,
  };
}

/** The scores of one module: the module's, and each file's. Throws when its report is missing. */
export function moduleScores(module) {
  const path = reportFileOf(module.name, 'json');
  if (!existsSync(path)) throw new Error(`no mutation report for module "${module.name}" at ${path}: run npm run mutate`);
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const files = Object.entries(report.files)
    .map(([file, { mutants }]) => ({ file, ...tally(mutants) }))
    .sort((a, b) => a.file.localeCompare(b.file));
  const all = Object.values(report.files).flatMap(({ mutants }) => mutants);
  return { module, ...tally(all), files };
}

const percent = (score) => `${score.toFixed(2)}%`;

function printTable(results) {
  const header = ['module / file', 'score', 'threshold', 'valid', 'killed', 'timeout', 'survived', 'no coverage', 'status'];
  const rows = results.flatMap((result) => [
    [
      result.module.name,
      percent(result.score),
      `${result.module.threshold}%`,
      result.valid,
      result.killed,
      result.timeout,
      result.survived,
      result.noCoverage,
      result.score < result.module.threshold ? 'BELOW THRESHOLD' : 'ok',
    ],
    ...result.files.map((file) => [
      `  ${file.file}`,
      percent(file.score),
      '',
      file.valid,
      file.killed,
      file.timeout,
      file.survived,
      file.noCoverage,
      '',
    ]),
  ]);
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  const line = (row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ').trimEnd();
  console.log(line(cells[0]));
  console.log(widths.map((width) => '-'.repeat(width)).join('  ').trimEnd());
  for (const row of cells.slice(1)) console.log(line(row));
}

/** Prints the table for `modules`; true when each is at or above its threshold. */
export function checkThresholds(modules = MUTATION_MODULES) {
  const results = modules.map(moduleScores);
  printTable(results);
  const below = results.filter((result) => result.score < result.module.threshold);
  for (const result of below) {
    console.error(`mutation score of ${result.module.name} is ${percent(result.score)}, below its threshold of ${result.module.threshold}%`);
  }
  return below.length === 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const names = process.argv.slice(2);
  const modules = names.length > 0 ? names.map(mutationModule) : MUTATION_MODULES;
  process.exitCode = checkThresholds(modules) ? 0 : 1;
}
