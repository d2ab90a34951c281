/**
 * Where a generated text first departs from its committed copy, as a message: the committed-file tests (schema
 * dump, the dashboard's API types) name the first line that differs rather than print two long files.
 */
export function firstDifference(expected: string, actual: string): string | null {
  if (expected === actual) return null;
  const want = expected.split('\n');
  const got = actual.split('\n');
  let line = 0;
  while (line < want.length && want[line] === got[line]) line += 1;
  return `line ${line + 1}:\n  committed: ${want[line] ?? '(end of file)'}\n  migrations make: ${got[line] ?? '(end of file)'}`;
}
