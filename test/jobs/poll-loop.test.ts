import { afterEach, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { startPollLoop, type PollLoopOptions } from '../../src/jobs/poll-loop.js';

/** Lets pending promise callbacks run (setImmediate is not among the mocked timers). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Items to hand out, and the work started on each, finished by the test. */
/** A claim function whose every claim stays pending until the test settles it through `claims`. */
function claimsHeldOpen(claims: Array<ReturnType<typeof deferred<string[]>>>): () => Promise<string[]> {
  return () => {
    claims.push(deferred<string[]>());
    return claims[claims.length - 1]!.promise;
  };
}

function harness(overrides: Partial<PollLoopOptions<string>> = {}) {
  const queue: string[] = [];
  const limits: number[] = [];
  const started = new Map<string, () => void>();
  const claimErrors: unknown[] = [];
  const options: PollLoopOptions<string> = {
    pollIntervalMs: 60_000,
    concurrency: 2,
    maxBackoffMs: 500,
    async claim(limit) {
      limits.push(limit);
      return queue.splice(0, limit);
    },
    work(item) {
      const done = deferred<void>();
      started.set(item, () => done.resolve());
      return done.promise;
    },
    onClaimError: (error) => claimErrors.push(error),
    ...overrides,
  };
  return { queue, limits, started, claimErrors, options };
}

describe('poll loop', () => {
  afterEach(() => mock.timers.reset());

  it('claims again at once after a full batch, and when a slot frees or on wake', async () => {
    const h = harness();
    h.queue.push('a', 'b', 'c');
    const loop = startPollLoop(h.options);
    await settle();
    // A full batch, then no free slot: no further claim until one frees.
    assert.deepEqual(h.limits, [2]);
    assert.deepEqual([...h.started.keys()], ['a', 'b']);

    h.started.get('a')?.();
    await settle();
    assert.deepEqual(h.limits, [2, 1]);
    assert.deepEqual([...h.started.keys()], ['a', 'b', 'c']);

    h.queue.push('d');
    h.started.get('b')?.();
    await settle();
    assert.deepEqual(h.limits, [2, 1, 1], 'a full batch of one, then the loop sleeps with no slot free');

    h.started.get('c')?.();
    await settle();
    assert.deepEqual(h.limits, [2, 1, 1, 1]);
    assert.deepEqual([...h.started.keys()], ['a', 'b', 'c', 'd']);

    // Idle (an empty claim): only a wake (or the poll interval) makes it look again.
    h.queue.push('e');
    await settle();
    assert.deepEqual(h.limits, [2, 1, 1, 1]);
    loop.wake();
    await settle();
    assert.deepEqual(h.limits, [2, 1, 1, 1, 1]);
    assert.ok(h.started.has('e'));

    for (const finish of h.started.values()) finish();
    await loop.stop();
    assert.deepEqual(h.claimErrors, []);
  });

  it('after a full batch claims again at once if a slot freed during the claim', async () => {
    const claims: Array<{ limit: number; result: ReturnType<typeof deferred<string[]>> }> = [];
    const h = harness({
      claim(limit) {
        claims.push({ limit, result: deferred<string[]>() });
        return claims[claims.length - 1]!.result.promise;
      },
    });
    const loop = startPollLoop(h.options);
    await settle();
    claims[0]!.result.resolve(['a']);
    await settle();
    assert.equal(claims.length, 1, 'half a batch: the loop sleeps');

    loop.wake();
    await settle();
    assert.equal(claims[1]?.limit, 1);
    // 'a' finishes while the loop is claiming, not sleeping: its wake-up is lost, the full batch makes up for it.
    h.started.get('a')?.();
    await settle();
    claims[1]!.result.resolve(['b']);
    await settle();
    assert.equal(claims[2]?.limit, 1);

    claims[2]!.result.resolve([]);
    h.started.get('b')?.();
    await loop.stop();
  });

  it('claims at most claimBatch at a time, and again only once minClaim slots are free', async () => {
    const h = harness({ concurrency: 6, claimBatch: 4, minClaim: 3 });
    h.queue.push('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i');
    const loop = startPollLoop(h.options);
    await settle();
    // 4 (a full batch: look again at once), then the 2 slots left are fewer than minClaim: sleep.
    assert.deepEqual(h.limits, [4]);
    assert.equal(h.started.size, 4);

    h.started.get('a')?.();
    await settle();
    assert.deepEqual(h.limits, [4, 3], 'three free: claim');
    assert.equal(h.started.size, 7);

    h.started.get('b')?.();
    await settle();
    assert.deepEqual(h.limits, [4, 3], 'one free: not yet');
    h.started.get('c')?.();
    h.started.get('d')?.();
    await settle();
    assert.deepEqual(h.limits, [4, 3, 3]);
    assert.equal(h.started.size, 9);

    for (const finish of h.started.values()) finish();
    await loop.stop();
  });

  it('with nothing in flight, claims even when fewer than minClaim slots exist', async () => {
    const h = harness({ concurrency: 2, minClaim: 5 });
    h.queue.push('a');
    const loop = startPollLoop(h.options);
    await settle();
    assert.deepEqual(h.limits, [2], 'minClaim is capped at concurrency');
    h.started.get('a')?.();
    await loop.stop();
  });

  it('a wake during a claim is kept: the sleep after it ends at once', async () => {
    const claims: Array<ReturnType<typeof deferred<string[]>>> = [];
    const h = harness({ claim: claimsHeldOpen(claims) });
    const loop = startPollLoop(h.options);
    await settle();
    loop.wake(); // e.g. a redelivery was asked while the loop was claiming
    claims[0]!.resolve([]);
    await settle();
    assert.equal(claims.length, 2, 'looked again without waiting for the poll interval');
    claims[1]!.resolve([]);
    await settle();
    assert.equal(claims.length, 2, 'then sleeps');
    await loop.stop();
  });

  it('stop waits for the work in flight, including items claimed while stopping', async () => {
    const claims: Array<ReturnType<typeof deferred<string[]>>> = [];
    const h = harness({ claim: claimsHeldOpen(claims) });
    const loop = startPollLoop(h.options);
    await settle();
    assert.equal(claims.length, 1);

    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    claims[0]!.resolve(['x']);
    await settle();
    assert.ok(h.started.has('x'), 'an item claimed as stop was asked is still worked');
    assert.equal(claims.length, 1, 'no claim after stop');
    assert.equal(stopped, false);

    h.started.get('x')?.();
    await stopping;
    assert.equal(stopped, true);
  });

  it('backs off exponentially up to the cap after failed claims, then polls at the interval again', async () => {
    mock.timers.enable({ apis: ['setTimeout'] });
    let failing = true;
    let claims = 0;
    const h = harness({
      pollIntervalMs: 100,
      maxBackoffMs: 500,
      async claim() {
        claims += 1;
        if (failing) throw new Error('database down');
        return [];
      },
    });
    const loop = startPollLoop(h.options);
    await settle();
    assert.equal(claims, 1);

    // Sleeps 200, 400, then 500 (capped) after one, two, three failures.
    for (const sleep of [200, 400, 500]) {
      const before: number = claims;
      mock.timers.tick(sleep - 1);
      await settle();
      assert.equal(claims, before, `still sleeping before ${sleep} ms`);
      mock.timers.tick(1);
      await settle();
      assert.equal(claims, before + 1, `claims again after ${sleep} ms`);
    }
    assert.equal(h.claimErrors.length, 4);

    failing = false;
    mock.timers.tick(500);
    await settle();
    assert.equal(claims, 5);
    mock.timers.tick(100);
    await settle();
    assert.equal(claims, 6, 'a successful claim resets the back-off');

    await loop.stop();
    assert.equal(h.claimErrors.length, 4);
  });

  it('does not report a claim that fails once stopping', async () => {
    const claim = deferred<string[]>();
    const h = harness({ claim: () => claim.promise });
    const loop = startPollLoop(h.options);
    await settle();
    const stopping = loop.stop();
    claim.reject(new Error('pool closed'));
    await stopping;
    assert.deepEqual(h.claimErrors, []);
  });
});
