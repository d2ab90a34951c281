/**
 * The dashboard as `staykit serve` serves it: web/dashboard/dist, built by `npm ci`. A test run builds it first when
 * the build is missing or older than a source file, so the browser tests never exercise a stale bundle.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const APP = join(ROOT, 'web', 'dashboard');
export const DIST = join(APP, 'dist');

function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

export function ensureDashboardBuilt(): void {
  const index = join(DIST, 'index.html');
  const sources = Math.max(newestChange(join(APP, 'src')), newestChange(join(APP, 'index.html')), newestChange(join(APP, 'vite.config.ts')));
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-web.js'), 'dashboard'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`building the dashboard failed:\n${build.stdout}\n${build.stderr}`);
}
