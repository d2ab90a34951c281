/**
 * The compute pool (src/compute/pool.ts) with real worker threads: work runs off the main thread; one organization
 * never holds every thread, and the others' tasks start at once; a full queue is a 429, a task past the time limit a
 * 422 and its thread is replaced; a caller's longer limit (a photo's resizing) holds for that task. Orders of completion are asserted, never durations.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { threadId } from 'node:worker_threads';
import { ComputePool, computeTask, taskModule, type ComputePoolOptions } from '../../src/compute/pool.js';
import { ApiError } from '../../src/errors/api-error.js';

const TASKS = taskModule(import.meta.url, './tasks');
const SPIN = computeTask<{ ms: number }, number>(TASKS, 'spin');
const ECHO = computeTask<string, { value: string; threadId: number }>(TASKS, 'echo');

describe('compute pool', () => {
  const pools: ComputePool[] = [];
  const pool = (options: Partial<ComputePoolOptions> = {}) => {
    const made = new ComputePool({ threads: 2, perOrganization: 1, queuePerOrganization: 8, taskTimeoutMs: 30_000, ...options });
    pools.push(made);
    return made;
  };
  after(() => Promise.all(pools.map((made) => made.close())));

  it('runs a task in a worker thread, not on the event loop', async () => {
    const answer = await pool().run('org-a', ECHO, 'hello');
    assert.equal(answer.value, 'hello');
    assert.notEqual(answer.threadId, threadId);
  });

  it("starts another organization's task at once while one organization has work queued", async () => {
    const compute = pool();
    await Promise.all([compute.run('warm', ECHO, 'a'), compute.run('warm-2', ECHO, 'b')]); // both threads started
    const finished: string[] = [];
    const track = (name: string, work: Promise<unknown>) => work.then(() => finished.push(name));
    const busy = [1, 2, 3].map((n) => track(`a${n}`, compute.run('org-a', SPIN, { ms: 600 })));
    assert.deepEqual(compute.load, { running: 1, waiting: 2 }, 'org-a runs one task at a time');
    const quick = track('b', compute.run('org-b', SPIN, { ms: 10 }));
    assert.deepEqual(compute.load, { running: 2, waiting: 2 }, "org-b's task took the free thread without waiting");
    await Promise.all([...busy, quick]);
    assert.deepEqual(finished, ['b', 'a1', 'a2', 'a3']);
    assert.deepEqual(compute.load, { running: 0, waiting: 0 });
  });

  it('gives freed threads to waiting organizations in turn, not in arrival order', async () => {
    const compute = pool({ threads: 1 });
    const started: string[] = [];
    const first = compute.run('org-a', SPIN, { ms: 200 });
    const queued = [['org-a', 'a2'], ['org-a', 'a3'], ['org-b', 'b1'], ['org-b', 'b2']].map(([organization, name]) =>
      compute.run(organization!, ECHO, name!).then((answer) => started.push(answer.value)));
    await Promise.all([first, ...queued]);
    assert.deepEqual(started, ['a2', 'b1', 'a3', 'b2']);
  });

  it("refuses an organization's task with 429 SK683 when its queue is full", async () => {
    const compute = pool({ threads: 1, queuePerOrganization: 1 });
    const running = compute.run('org-a', SPIN, { ms: 300 });
    const waiting = compute.run('org-a', SPIN, { ms: 1 });
    await assert.rejects(compute.run('org-a', SPIN, { ms: 1 }), (error: unknown) =>
      error instanceof ApiError && error.status === 429 && error.code === 'SK683' && error.headers['retry-after'] === '1');
    await Promise.all([running, waiting]);
    assert.equal(typeof await compute.run('org-a', SPIN, { ms: 1 }), 'number', 'room again once the queue drained');
  });

  it('stops a task past the time limit with 422 SK684, and the next task gets a fresh thread', async () => {
    const compute = pool({ threads: 1, taskTimeoutMs: 1_000 });
    const before = await compute.run('org-a', ECHO, 'warm');
    await assert.rejects(compute.run('org-a', SPIN, { ms: 600_000 }), (error: unknown) =>
      error instanceof ApiError && error.status === 422 && error.code === 'SK684' && /1 s/.test(error.message));
    const next = await compute.run('org-a', ECHO, 'again');
    assert.equal(next.value, 'again');
    assert.notEqual(next.threadId, before.threadId, 'the stopped thread was replaced');
  });

  it("gives a task its caller's longer limit, to run and to wait for a thread (a photo's resizing), and stops it past that", async () => {
    const compute = pool({ threads: 1, taskTimeoutMs: 300 });
    const first = compute.run('org-a', SPIN, { ms: 900 }, 5_000);
    const second = compute.run('org-a', SPIN, { ms: 10 }, 5_000);
    assert.equal(typeof await first, 'number', 'ran three times past the pool limit');
    assert.equal(typeof await second, 'number', 'waited three times past the pool limit');
    await assert.rejects(compute.run('org-a', SPIN, { ms: 600_000 }, 2_000), (error: unknown) =>
      error instanceof ApiError && error.code === 'SK684' && /2 s/.test(error.message));
  });
});
