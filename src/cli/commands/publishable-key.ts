/**
 * `staykit key create --publishable --widget ID | --site ID [--name N]` and `staykit key revoke pk_…`: publishable
 * keys for a widget or site (docs/widget.md); the organization is the widget's or site's.
 */
import { createPublishableKey, revokePublishableKey, type PublishableKeyRecord } from '../../auth/publishable-key-store.js';
import { UUID } from '../../common/patterns.js';
import type { Database } from '../../db/types.js';
import { UsageError } from '../support/usage-error.js';

export interface PublishableKeyArguments {
  widgetId: string | null;
  siteId: string | null;
  name: string;
}

/** Checks the flags before any database is opened. */
export function publishableKeyArguments(values: { widget?: string; site?: string; name?: string }): PublishableKeyArguments {
  if ((values.widget === undefined) === (values.site === undefined)) throw new UsageError('--publishable needs exactly one of --widget ID and --site ID');
  for (const [flag, value] of [['--widget', values.widget], ['--site', values.site]] as const) {
    if (value !== undefined && !UUID.test(value)) throw new UsageError(`${flag} must be a uuid, got "${value}"`);
  }
  return { widgetId: values.widget ?? null, siteId: values.site ?? null, name: values.name ?? 'publishable key' };
}

export async function createPublishableKeyCommand(db: Database, args: PublishableKeyArguments): Promise<PublishableKeyRecord> {
  const table = args.widgetId ? 'widgets' : 'sites';
  const { rows } = await db.query<{ organization_id: string }>(
    `SELECT organization_id FROM api.${table} WHERE id = $1`, [args.widgetId ?? args.siteId]);
  const organizationId = rows[0]?.organization_id;
  if (!organizationId) throw new UsageError(`no ${args.widgetId ? 'widget' : 'site'} ${args.widgetId ?? args.siteId}`);
  return (await createPublishableKey(db, { organizationId, ...args }))!;
}

export async function revokePublishableKeyCommand(db: Database, key: string): Promise<PublishableKeyRecord> {
  const { rows } = await db.query<{ organization_id: string }>(
    'SELECT organization_id FROM staykit_internal.publishable_keys WHERE key = $1', [key]);
  const revoked = rows[0] && await revokePublishableKey(db, rows[0].organization_id, key);
  if (!revoked) throw new UsageError(`no publishable key ${key}`);
  return revoked;
}
