/**
 * The served OpenAPI document as an integrator's tooling sees it: `@redocly/cli lint` with its recommended rules
 * (structure of OpenAPI 3.1, every example valid against its schema, unique parameters, a 4xx for each operation,
 * no unused components) finds no error and no warning. Runs the installed CLI offline.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';

const REDOCLY = join(import.meta.dirname, '../../node_modules/.bin/redocly');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

async function lint(files: string[], cwd: string): Promise<LintReport> {
  // No telemetry, no update check: the run must not need the network.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const run = promisify(execFile);
  const output = await run(REDOCLY, ['lint', ...files, '--extends', 'recommended', '--format', 'json'], { cwd, env, maxBuffer: 64 * 1024 * 1024 })
    .catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  // One JSON report per file, printed one after the other: merged into one.
  const reports = JSON.parse(`[${output.stdout.slice(output.stdout.indexOf('{')).replace(/^\}\{$/gm, '},{')}]`) as LintReport[];
  assert.equal(reports.length, files.length, 'one report per file');
  return {
    totals: { errors: reports.reduce((sum, report) => sum + report.totals.errors, 0), warnings: reports.reduce((sum, report) => sum + report.totals.warnings, 0) },
    problems: reports.flatMap((report) => report.problems),
  };
}

forEachBackend('OpenAPI document: @redocly/cli lint, recommended rules', (ctx) => {
  let app: FastifyInstance;
  let dir: string;
  let document: { paths: Record<string, Record<string, { parameters?: { $ref: string }[] }>>; components: { parameters: Record<string, { name: string }> } };

  before(async () => {
    app = await startApp(ctx.db);
    dir = await mkdtemp(join(tmpdir(), 'staykit-openapi-lint-'));
    const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    document = response.json();
    await writeFile(join(dir, 'openapi.json'), response.body);
  });
  after(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds no error and no warning', async () => {
    const report = await lint([join(dir, 'openapi.json')], dir);
    const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`);
    assert.deepEqual(problems, []);
    assert.deepEqual([report.totals.errors, report.totals.warnings], [0, 0]);
  });

  it("finds no error and no warning in any tag's document (?tag=, what the reference page loads)", async () => {
    const tags = (document as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name);
    const files = await Promise.all(tags.map(async (tag, i) => {
      const response = await app.inject({ method: 'GET', url: `/v1/openapi.json?tag=${encodeURIComponent(tag)}` });
      assert.equal(response.statusCode, 200, tag);
      const file = join(dir, `tag-${i}.json`);
      await writeFile(file, response.body);
      return file;
    }));
    const report = await lint(files, dir);
    const problems = report.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}`);
    assert.deepEqual(problems, []);
    assert.equal(report.totals.errors + report.totals.warnings, 0);
  });

  it('offers no filter named `order`: in PostgREST `order` is always the ordering', () => {
    const list = document.paths['/product_configurations']!.get!;
    const names = list.parameters!.map((parameter) => {
      const name = parameter.$ref.split('/').pop()!;
      return document.components.parameters[name]!.name;
    });
    assert.equal(names.filter((name) => name === 'order').length, 1, names.join(','));
    assert.equal(document.components.parameters['product_configurations.order'], undefined);
    assert.ok(document.components.parameters['product_configurations.name'], 'other columns stay filterable');
  });
});
