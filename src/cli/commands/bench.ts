/**
 * `staykit bench [options]`: the benchmark of `npm run bench` (bench/run.ts) — PostgreSQL, then a smaller run on
 * PGlite — with the same options (bench/options.ts, docs/benchmark.md). Bad options are a UsageError (exit 2);
 * a scenario that returned errors or completed nothing exits 1.
 *
 * The benchmark is imported only when this command runs: it needs the development dependencies (autocannon,
 * hdr-histogram-js) that a production install of the other commands may leave out.
 */
export async function benchCommand(args: string[]): Promise<void> {
  const { parseBenchArguments } = await import('../../../bench/options.js');
  const options = parseBenchArguments(args);
  const { runBenchmark } = await import('../../../bench/run.js');
  const outcome = await runBenchmark(options);
  if (outcome.failed) {
    console.error('staykit: bench: some scenarios returned errors or completed nothing');
    process.exitCode = 1;
  }
}
