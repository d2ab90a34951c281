/**
 * An upload turned into stored variants: the image work in the compute pool under the organization's budget (never
 * on the event loop: docs/security.md), its refusals as the API's errors.
 */
import { computeTask, taskModule, type ComputePool } from '../compute/pool.js';
import { notAnImage, tooManyPixels } from './errors.js';
import type { ProcessImageInput, ProcessImageOutput } from './process-image.js';

const PROCESS_IMAGE = computeTask<ProcessImageInput, ProcessImageOutput>(taskModule(import.meta.url, './process-image'), 'processImage');

export type ProcessedImage = Extract<ProcessImageOutput, { ok: true }>;

/**
 * `timeLimitMs` (STAYKIT_MEDIA_TIMEOUT): how long the upload may wait for a thread and then be resized — longer than a
 * template's limit, as a phone photo's twelve copies take seconds on a busy server and a dashboard sends several at once.
 */
export async function processUpload(pool: ComputePool, input: ProcessImageInput, timeLimitMs: number): Promise<ProcessedImage> {
  const output = await pool.run(input.organizationId, PROCESS_IMAGE, input, timeLimitMs);
  if (output.ok) return output;
  if (output.reason === 'too-many-pixels') throw tooManyPixels(output.pixels, input.maxPixels);
  throw notAnImage();
}
