/**
 * The compute pool of this process: one for the API and the background workers together, so the per-organization
 * budget (src/compute/pool.ts) holds across both, created with the first work that needs it.
 */
import { loadConfig, type Config } from '../config.js';
import { ComputePool } from './pool.js';

type ComputeConfig = Pick<Config, 'computeThreads' | 'computePerOrganization' | 'computeQueue' | 'computeTimeoutSeconds'>;

let shared: ComputePool | undefined;

export function computePoolOptions(config: ComputeConfig) {
  return {
    threads: config.computeThreads,
    perOrganization: config.computePerOrganization,
    queuePerOrganization: config.computeQueue,
    taskTimeoutMs: config.computeTimeoutSeconds * 1000,
  };
}

/** The process's pool, made from `config` (default: the documented defaults) the first time it is asked for. */
export function processComputePool(config: ComputeConfig = loadConfig({})): ComputePool {
  shared ??= new ComputePool(computePoolOptions(config));
  return shared;
}
