/**
 * The widgets page's reads and writes: widgets with their listed units (`widgets`, `widget_listings`), their
 * publishable keys (`/v1/publishable-keys`, src/widget/key-routes.ts) and their analytics per day (`widget_analytics`).
 */
import { database, rowsOf } from '../api/database';
import { requestJson } from '../api/http';
import type { AnalyticsCount } from './analytics';
import type { WidgetDraft } from './widget-draft';

const WIDGET_SELECT = 'id,name,language,settings,allowed_origins,created_at,widget_listings(product_id,order)';

export async function loadWidgets() {
  return rowsOf(await database.from('widgets').select(WIDGET_SELECT).order('created_at'));
}

export type WidgetRow = Awaited<ReturnType<typeof loadWidgets>>[number];

export async function loadWidget(id: string): Promise<WidgetRow | null> {
  return rowsOf(await database.from('widgets').select(WIDGET_SELECT).eq('id', id).maybeSingle());
}

/** The widget's own columns of a draft; its units are written apart (`saveListings`). */
function widgetColumns(draft: WidgetDraft) {
  return { name: draft.name, language: draft.language, settings: draft.settings, allowed_origins: draft.allowedOrigins };
}

/** Creates the widget, then lists its units; answers the new widget's id. */
export async function createWidget(draft: WidgetDraft): Promise<string> {
  const { id } = rowsOf(await database.from('widgets').insert(widgetColumns(draft)).select('id').single());
  await saveListings(id, draft.unitIds, []);
  return id;
}

export async function updateWidget(widget: WidgetRow, draft: WidgetDraft): Promise<void> {
  rowsOf(await database.from('widgets').update(widgetColumns(draft)).eq('id', widget.id));
  await saveListings(widget.id, draft.unitIds, widget.widget_listings.map((listing) => listing.product_id));
}

/**
 * The widget lists `unitIds`, in that order: listings of units no longer chosen are removed, the chosen ones written
 * with their position (an upsert on the listing's unique widget and unit).
 */
async function saveListings(widgetId: string, unitIds: readonly string[], listed: readonly string[]): Promise<void> {
  const dropped = listed.filter((unitId) => !unitIds.includes(unitId));
  if (dropped.length > 0) rowsOf(await database.from('widget_listings').delete().eq('widget_id', widgetId).in('product_id', dropped));
  if (unitIds.length === 0) return;
  const rows = unitIds.map((productId, order) => ({ widget_id: widgetId, product_id: productId, order: order + 1 }));
  rowsOf(await database.from('widget_listings').upsert(rows, { onConflict: 'widget_id,product_id' }));
}

export async function deleteWidget(id: string): Promise<void> {
  rowsOf(await database.from('widgets').delete().eq('id', id));
}

/** A publishable key as `/v1/publishable-keys` answers it. */
export interface PublishableKey {
  id: string;
  key: string;
  widget_id: string | null;
  site_id: string | null;
  name: string;
  created_at: string;
  revoked_at: string | null;
}

const KEYS = '/v1/publishable-keys';

/** The widget's keys, oldest first (the organization's list, of this widget). */
export async function loadKeys(widgetId: string): Promise<PublishableKey[]> {
  const keys = await requestJson<PublishableKey[]>('GET', KEYS);
  return keys.filter((key) => key.widget_id === widgetId).sort((a, b) => a.created_at.localeCompare(b.created_at));
}

export const createKey = (widgetId: string, name: string) => requestJson<PublishableKey>('POST', KEYS, { widget_id: widgetId, name });

export const revokeKey = (id: string) => requestJson<PublishableKey>('DELETE', `${KEYS}/${encodeURIComponent(id)}`);

/** The widget's events counted per day and kind since `since` (an ISO date), the database doing the counting. */
export async function loadAnalytics(widgetId: string, since: string): Promise<AnalyticsCount[]> {
  const rows = rowsOf(await database.from('widget_analytics').select('event,day:created_at::date,count()')
    .eq('widget_id', widgetId).gte('created_at', since));
  return rows.map((row) => ({ day: String(row.day), event: row.event, count: Number(row.count) }));
}
