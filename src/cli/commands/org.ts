import type { Database } from '../../db/types.js';
import { createApiKey } from '../../auth/api-key-store.js';
import { UsageError } from '../support/usage-error.js';
import { addDefaultTemplates } from '../../automations/default-templates.js';

export interface CreatedOrganization {
  organization_id: string;
  api_key: string;
  key_id: string;
}

/** Creates an organization with the default e-mail templates and a first read/write key for it, atomically. */
export async function createOrganization(db: Database, name: string): Promise<CreatedOrganization> {
  if (name.trim() === '') throw new UsageError('--name must not be empty');
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>('INSERT INTO api.organizations (name) VALUES ($1) RETURNING id', [name]);
    const organizationId = rows[0]!.id;
    await addDefaultTemplates(tx, organizationId);
    const key = await createApiKey(tx, { organizationId, name: 'default', scopes: ['read', 'write'], expiresAt: null });
    return { organization_id: organizationId, api_key: key.api_key, key_id: key.key_id };
  });
}
