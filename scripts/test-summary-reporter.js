// A second reporter for `npm test` (beside TAP): at the very end of the output — the part a CI log's tail shows —
// every test file that failed, timed out or had tests cancelled, with the first line of each reason, and the ten
// slowest files (by the time of their tests), so a red run says where to look without the whole log.
const firstLine = (error) => String(error?.cause?.message ?? error?.message ?? error ?? '').split('\n').find((line) => line.trim() !== '') ?? '';

export default async function* summary(source) {
  const byFile = new Map();
  const durations = new Map();
  const entry = (file) => {
    if (!byFile.has(file)) byFile.set(file, { failed: [], cancelled: 0 });
    return byFile.get(file);
  };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, file, details } = event.data;
    const path = file ?? name;
    // A file's time: the sum of its tests (not suites: those may be declared by a helper in another file, such as
    // forEachBackend's; a file that passed has no entry of its own).
    if (details.type !== 'suite' && name !== path && path.endsWith('.test.ts')) durations.set(path, (durations.get(path) ?? 0) + (details.duration_ms ?? 0));
    if (event.type !== 'test:fail' || details.type === 'suite') continue;
    const error = details.error;
    if (error?.failureType === 'cancelledByParent') entry(path).cancelled += 1;
    else if (error?.failureType !== 'subtestsFailed') entry(path).failed.push(`${name}: ${firstLine(error)}`);
  }
  const lines = ['', '# summary of this run'];
  for (const [file, { failed, cancelled }] of byFile) {
    lines.push(`# ✗ ${file}${cancelled > 0 ? ` (${cancelled} cancelled)` : ''}`);
    for (const reason of failed.slice(0, 5)) lines.push(`#     ${reason.slice(0, 300)}`);
  }
  if (byFile.size === 0) lines.push('# no test failed or was cancelled');
  lines.push('# slowest files:');
  for (const [path, ms] of [...durations].sort((a, b) => b[1] - a[1]).slice(0, 10)) lines.push(`#   ${(ms / 1000).toFixed(0).padStart(4)} s  ${path}`);
  yield `${lines.join('\n')}\n`;
}
