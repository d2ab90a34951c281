/**
 * Graceful exit for the long-running commands (`serve`, `worker`, `rest`): the first SIGTERM or SIGINT runs `stop`
 * (finish what is in flight, close the database) and then exits 0.
 *
 * Call it before the command announces that it is ready, in the same synchronous block as the announcement.
 * Whoever reads the announcement (a supervisor, a test) may signal at once, and a signal that arrives before any
 * handler is registered kills the process with its default action, not gracefully.
 *
 * A repeated SIGTERM while stopping is ignored: a supervisor that signals twice must not cut the shutdown short.
 * A second SIGINT (Ctrl-C twice) keeps its default and ends the process at once.
 */
export function exitGracefullyOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`${signal}: the shutdown failed:`, error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}
