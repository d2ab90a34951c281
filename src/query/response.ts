/**
 * Status and headers as PostgREST v12 sends them (its Response.hs and RangeQuery.hs): Content-Range, 200/206/416,
 * 201/204, Location for `return=headers-only`, Preference-Applied.
 */

/** `Content-Range` value: `lower-upper/total`, `*` when the page is empty or the total is 0, `/*` when not counted. */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const totalText = total === undefined ? '*' : String(total);
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${totalText}`;
}

/** 200, 206 (the page is smaller than the total) or 416 (the offset is past the total); only with a known total. */
export function rangeStatus(lower: number, upper: number, total: number | undefined): number {
  if (total === undefined) return 200;
  if (lower > total) return 416;
  if (1 + upper - lower < total) return 206;
  return 200;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const OBJECT_CONTENT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export function contentTypeFor(media: 'json' | 'object' | 'csv'): string {
  return media === 'csv' ? CSV_CONTENT_TYPE : media === 'object' ? OBJECT_CONTENT_TYPE : JSON_CONTENT_TYPE;
}

/** `/table?id=eq.1`: PostgREST's Location for one inserted row (`renderSimpleQuery`). */
export function locationFor(basePath: string, table: string, keys: Record<string, unknown>): string {
  const query = Object.entries(keys)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(`eq.${value === null ? 'null' : String(value)}`)}`)
    .join('&');
  return `${basePath}/${encodeURIComponent(table)}${query ? `?${query}` : ''}`;
}
