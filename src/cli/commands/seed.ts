import type { Database } from '../../db/types.js';
import { seedDemoOrganization, type SeededOrganization } from '../../seed/demo-organization.js';

export function seedCommand(db: Database): Promise<SeededOrganization> {
  return seedDemoOrganization(db);
}
