import { it } from 'node:test';
import assert from 'node:assert/strict';
import { startPeriodicJob } from '../../src/jobs/periodic.js';
import type { WorkerLogger } from '../../src/observability/worker-logger.js';

/** The loop looks this often in these tests (ms): short, so the clock decides what runs. */
const LOOK_MS = 5;

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; !condition(); attempt += 1) {
    assert.ok(attempt < 2000, `never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, LOOK_MS));
  }
}

/** A clock the test moves, and how many times the job looked at it. */
function testClock(start: string) {
  let at = new Date(start);
  let looks = 0;
  return {
    now: () => { looks += 1; return at; },
    set: (iso: string) => { at = new Date(iso); },
    /** Waits until the loop has looked at the clock `more` more times (so it had its chance to run). */
    looked: async (more: number) => { const target = looks + more; await until(() => looks >= target, `${more} looks`); },
  };
}

const errors: string[] = [];
const logger: WorkerLogger = { info() {}, warn() {}, error(_fields, message) { errors.push(message); } };

it('runs at start, then once per interval of its clock', async () => {
  const clock = testClock('2030-01-01T00:00:00Z');
  const runs: string[] = [];
  // The interval as the clock counts it is an hour; the loop looks every few ms.
  const job = startPeriodicJob({
    intervalMs: LOOK_MS, now: clock.now, logger, failureMessage: 'failed',
    due: (at, last) => at.getTime() - last.getTime() >= 60 * 60 * 1000,
    run: async (at) => { runs.push(at.toISOString()); },
  });
  try {
    await until(() => runs.length === 1, 'the first run');
    clock.set('2030-01-01T00:59:00Z');
    await clock.looked(3);
    assert.deepEqual(runs, ['2030-01-01T00:00:00.000Z'], 'not due before the interval');
    clock.set('2030-01-01T01:00:00Z');
    await until(() => runs.length === 2, 'the second run');
    assert.equal(runs[1], '2030-01-01T01:00:00.000Z');
  } finally {
    await job.stop();
  }
});

it('by default is due when intervalMs has passed on its clock', async () => {
  const clock = testClock('2030-01-01T00:00:00Z');
  let runs = 0;
  const job = startPeriodicJob({ intervalMs: LOOK_MS, now: clock.now, logger, failureMessage: 'failed', run: async () => { runs += 1; } });
  try {
    await until(() => runs === 1, 'the first run');
    await clock.looked(3);
    assert.equal(runs, 1, 'the clock stood still: nothing due');
    clock.set('2030-01-01T00:00:00.005Z');
    await until(() => runs === 2, 'the run after the interval');
  } finally {
    await job.stop();
  }
});

it('logs a failed run and runs again in the next period', async () => {
  errors.length = 0;
  const clock = testClock('2030-01-01T00:00:00Z');
  const runs: string[] = [];
  const job = startPeriodicJob({
    intervalMs: LOOK_MS, now: clock.now, logger, failureMessage: 'the job failed',
    due: (at, last) => at.toISOString().slice(0, 10) !== last.toISOString().slice(0, 10),
    run: async (at) => {
      runs.push(at.toISOString().slice(0, 10));
      if (runs.length === 1) throw new Error('database away');
    },
  });
  try {
    await until(() => errors.length === 1, 'the failure logged');
    assert.deepEqual(errors, ['the job failed']);
    clock.set('2030-01-02T00:00:00Z');
    await until(() => runs.length === 2, 'the next day\'s run');
    assert.deepEqual(runs, ['2030-01-01', '2030-01-02']);
  } finally {
    await job.stop();
  }
});

it('stop waits for the run in progress', async () => {
  let finished = false;
  let started = false;
  const job = startPeriodicJob({
    intervalMs: 60_000, logger, failureMessage: 'failed',
    run: async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    },
  });
  await until(() => started, 'the run started');
  await job.stop();
  assert.equal(finished, true);
});
