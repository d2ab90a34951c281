// A second reporter for `npm test` (beside TAP): at the very end of the output — the part a CI log's tail shows —
// every test file that failed, timed out or had tests cancelled, with the first line of each reason, and the ten
// slowest files (by the time of their tests), so a red run says where to look without the whole log. A failure also
// names its suite (the backend, for forEachBackend's), the UTC time it was reported (some failures belong to an hour
// of the day) and, for an assertion, what was compared.
const firstLine = (error) => String(error?.cause?.message ?? error?.message ?? error ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
const shown = (value) => {
  try {
    return (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)).slice(0, 200);
  } catch {
    return String(value).slice(0, 200);
  }
};
const compared = (error) => {
  const assertion = error?.cause ?? error;
  return typeof assertion === 'object' && assertion !== null && assertion.code === 'ERR_ASSERTION' && 'actual' in assertion && 'expected' in assertion
    ? [`actual ${shown(assertion.actual)}`, `expected ${shown(assertion.expected)}`]
    : [];
};

export default async function* summary(source) {
  const byFile = new Map();
  const durations = new Map();
  const suiteOf = new Map();
  const entry = (file) => {
    if (!byFile.has(file)) byFile.set(file, { failed: [], cancelled: 0 });
    return byFile.get(file);
  };
  for await (const event of source) {
    if (event.type === 'test:start' && event.data.nesting === 0) suiteOf.set(event.data.file ?? event.data.name, event.data.name);
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    const path = file ?? name;
    // A file's time: the sum of its tests (not suites: those may be declared by a helper in another file, such as
    // forEachBackend's; a file that passed has no entry of its own).
    if (details.type !== 'suite' && name !== path && path.endsWith('.test.ts')) durations.set(path, (durations.get(path) ?? 0) + (details.duration_ms ?? 0));
    if (event.type !== 'test:fail' || details.type === 'suite') continue;
    const error = details.error;
    if (error?.failureType === 'cancelledByParent') entry(path).cancelled += 1;
    else if (error?.failureType !== 'subtestsFailed') {
      const at = new Date().toISOString().slice(11, 19);
      const suite = suiteOf.get(path);
      entry(path).failed.push([`${at} ${suite && suite !== name ? `${suite} › ` : ''}${name}: ${firstLine(error)}`, ...compared(error)]);
    }
  }
  const lines = ['', '# summary of this run'];
  for (const [file, { failed, cancelled }] of byFile) {
    lines.push(`# ✗ ${file}${cancelled > 0 ? ` (${cancelled} cancelled)` : ''}`);
    for (const [reason, ...details] of failed.slice(0, 5)) {
      lines.push(`#     ${reason.slice(0, 300)}`);
      for (const detail of details) lines.push(`#         ${detail}`);
    }
  }
  if (byFile.size === 0) lines.push('# no test failed or was cancelled');
  lines.push('# slowest files:');
  for (const [path, ms] of [...durations].sort((a, b) => b[1] - a[1]).slice(0, 10)) lines.push(`#   ${(ms / 1000).toFixed(0).padStart(4)} s  ${path}`);
  yield `${lines.join('\n')}\n`;
}
