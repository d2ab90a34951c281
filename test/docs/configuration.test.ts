/**
 * Every setting the server reads is documented where operators look for it: the README's configuration table and
 * docs/deployment.md's. A setting added to src/config.ts without a row fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES } from '../../src/config.js';

/** Variable names in the first column of a Markdown table (`| \`NAME\`, \`OTHER\` | …`). */
function documentedVariables(path: string): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const first = /^\|([^|]+)\|/.exec(line)?.[1] ?? '';
    for (const match of first.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(match[1]!);
  }
  return names;
}

for (const path of ['README.md', 'docs/deployment.md']) {
  test(`${path} lists every environment variable of src/config.ts`, () => {
    const documented = documentedVariables(path);
    const missing = Object.values(CONFIG_VARIABLES).flat().filter((name) => !documented.has(name));
    assert.deepEqual(missing, []);
  });
}
