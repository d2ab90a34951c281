/**
 * Today as the organization sees it: the date in its time zone, which the dashboard, the booking flow and the guest
 * page all go by. A test that takes today's date in UTC is a day off between UTC midnight and the zone's (every
 * evening from 23:00 UTC for Amsterdam in winter).
 */
import { todayIn } from '../../src/common/dates.js';
import type { Queryable } from '../../src/db/types.js';

export async function organizationToday(db: Queryable, organizationId: string): Promise<string> {
  const { rows: [organization] } = await db.query<{ timezone: string }>('SELECT timezone FROM api.organizations WHERE id = $1', [organizationId]);
  return todayIn(organization!.timezone);
}
