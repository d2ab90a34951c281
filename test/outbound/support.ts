/** Assertions shared by the outbound-request and webhook-transport tests. */
import assert from 'node:assert/strict';
import { OutboundError } from '../../src/outbound/errors.js';

/** The promise rejects with an OutboundError of `kind` (and a message matching `pattern`, if given). */
export async function rejectsWith(promise: Promise<unknown>, kind: string, pattern?: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof OutboundError, `expected an OutboundError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    if (pattern) assert.match(error.message, pattern);
    return true;
  });
}
