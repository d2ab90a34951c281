/** `staykit seed`: the demo organization (src/seed), with its units' photos in the configured media store. */
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { processComputePool } from '../../compute/process-pool.js';
import { openMediaStore } from '../../media/open-store.js';
import { seedDemoOrganization, type SeededOrganization } from '../../seed/demo-organization.js';

export async function seedCommand(db: Database, config: Config): Promise<SeededOrganization> {
  const compute = processComputePool(config);
  try {
    return await seedDemoOrganization(db, undefined, { compute, store: openMediaStore(config), timeLimitMs: config.mediaTimeoutSeconds * 1000 });
  } finally {
    await compute.close();
  }
}
