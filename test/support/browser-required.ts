/**
 * Whether Debian's chromium is missing for a browser test file: then its tests skip with a message, unless
 * STAYKIT_TEST_REQUIRE_BROWSER=1 (CI), which makes a missing browser an error.
 */
import { existsSync } from 'node:fs';

export function browserMissing(executable: string, tests: string): boolean {
  const missing = !existsSync(executable);
  if (missing && process.env.STAYKIT_TEST_REQUIRE_BROWSER === '1') throw new Error(`${executable} not found, and STAYKIT_TEST_REQUIRE_BROWSER=1 requires it`);
  if (missing) console.log(`# skipping the ${tests}: ${executable} not found (install it with: apt-get install -y chromium)`);
  return missing;
}
