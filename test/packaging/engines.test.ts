/**
 * `npm ci` must print no EBADENGINE warning on any Node the project declares: every installed package's own
 * `engines.node` range has to accept the lowest Node of ours (package.json's `engines.node`), dev tools included,
 * since the README's commands install and run them. A dependency that moves to a newer Node fails here, not on a
 * user's machine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import semver from 'semver';

interface LockedPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  os?: string[];
}

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockedPackage> };

test('the lowest declared Node version satisfies the engines range of every locked package', () => {
  const lowest = semver.minVersion(manifest.engines.node);
  assert.ok(lowest, `package.json's engines.node "${manifest.engines.node}" is not a range`);
  const refused = Object.entries(lock.packages)
    .filter(([path, locked]) => path !== '' && !Array.isArray(locked.engines) && locked.engines?.node !== undefined)
    // Platform binaries npm skips on other systems are never installed here, so their ranges cannot warn.
    .filter(([, locked]) => !(locked.optional && locked.os && !locked.os.includes(process.platform)))
    .filter(([, locked]) => !semver.satisfies(lowest, (locked.engines as { node: string }).node))
    .map(([path, locked]) => `${path}@${locked.version} needs node ${(locked.engines as { node: string }).node}`);
  assert.deepEqual(refused, []);
});

test('the running Node is one the project declares', () => {
  assert.ok(semver.satisfies(process.versions.node, manifest.engines.node), `Node ${process.versions.node} is outside "${manifest.engines.node}"`);
});
