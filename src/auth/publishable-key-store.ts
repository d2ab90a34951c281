/**
 * Publishable keys in `staykit_internal.publishable_keys` (migration 0150): created for one widget or one site,
 * listed, revoked; looked up per request together with what the key may reach — its allowed origins and the
 * products listed on its widget or site. Run as the database owner, before any tenant transaction.
 */
import type { Queryable } from '../db/types.js';

export interface PublishableKeyRecord {
  id: string;
  organization_id: string;
  widget_id: string | null;
  site_id: string | null;
  key: string;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

const COLUMNS = 'id, organization_id, widget_id, site_id, key, name, created_at, revoked_at';

export interface NewPublishableKey {
  organizationId: string;
  widgetId: string | null;
  siteId: string | null;
  name: string;
}

/** Creates a key for a widget or site of the organization; undefined when that widget or site is not the organization's. */
export async function createPublishableKey(db: Queryable, key: NewPublishableKey): Promise<PublishableKeyRecord | undefined> {
  const { rows } = await db.query<PublishableKeyRecord>(
    `INSERT INTO staykit_internal.publishable_keys (organization_id, widget_id, site_id, name)
     SELECT $1, $2, $3, $4
     WHERE EXISTS (SELECT 1 FROM api.widgets WHERE id = $2 AND organization_id = $1)
        OR EXISTS (SELECT 1 FROM api.sites WHERE id = $3 AND organization_id = $1)
     RETURNING ${COLUMNS}`,
    [key.organizationId, key.widgetId, key.siteId, key.name],
  );
  return rows[0];
}

export async function listPublishableKeys(db: Queryable, organizationId: string): Promise<PublishableKeyRecord[]> {
  const { rows } = await db.query<PublishableKeyRecord>(
    `SELECT ${COLUMNS} FROM staykit_internal.publishable_keys WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
  return rows;
}

/** Revokes one of the organization's keys by id or by the key itself; undefined when none matched. */
export async function revokePublishableKey(db: Queryable, organizationId: string, idOrKey: string): Promise<PublishableKeyRecord | undefined> {
  const { rows } = await db.query<PublishableKeyRecord>(
    `UPDATE staykit_internal.publishable_keys SET revoked_at = coalesce(revoked_at, now())
     WHERE organization_id = $1 AND (key = $2 OR id::text = $2) RETURNING ${COLUMNS}`,
    [organizationId, idOrKey],
  );
  return rows[0];
}

/** An active publishable key and what it may reach. */
export interface ActivePublishableKey {
  id: string;
  key: string;
  organizationId: string;
  widgetId: string | null;
  siteId: string | null;
  allowedOrigins: string[];
  productIds: string[];
}

export async function findActivePublishableKey(db: Queryable, token: string): Promise<ActivePublishableKey | undefined> {
  const { rows } = await db.query<{
    id: string; organization_id: string; widget_id: string | null; site_id: string | null; allowed_origins: string[]; product_ids: string[];
  }>(
    `SELECT k.id, k.organization_id, k.widget_id, k.site_id,
            coalesce(w.allowed_origins, s.allowed_origins, '{}') AS allowed_origins,
            ARRAY(SELECT l.product_id::text FROM api.widget_listings AS l
                  WHERE l.widget_id = k.widget_id AND l.organization_id = k.organization_id
                  UNION ALL
                  SELECT l.product_id::text FROM api.site_listings AS l
                  WHERE l.site_id = k.site_id AND l.organization_id = k.organization_id) AS product_ids
     FROM staykit_internal.publishable_keys AS k
     LEFT JOIN api.widgets AS w ON w.id = k.widget_id AND w.organization_id = k.organization_id
     LEFT JOIN api.sites AS s ON s.id = k.site_id AND s.organization_id = k.organization_id
     WHERE k.key = $1 AND k.revoked_at IS NULL`,
    [token],
  );
  const row = rows[0];
  return row && {
    id: row.id, key: token, organizationId: row.organization_id, widgetId: row.widget_id, siteId: row.site_id,
    allowedOrigins: row.allowed_origins, productIds: row.product_ids,
  };
}

/** Whether any widget or site of any organization allows `origin` (CORS preflights carry no key). */
export async function originAllowedAnywhere(db: Queryable, origin: string): Promise<boolean> {
  const { rows } = await db.query<{ allowed: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM api.widgets WHERE allowed_origins @> ARRAY[$1::text])
         OR EXISTS (SELECT 1 FROM api.sites WHERE allowed_origins @> ARRAY[$1::text]) AS allowed`,
    [origin],
  );
  return rows[0]?.allowed === true;
}
