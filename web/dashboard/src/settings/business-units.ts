/**
 * What the taxes and attributes pages share: the organization's units (not archived) in the order of their names, and the change of a
 * set of links (a tax's units, a unit's options) as the rows to add and the rows to remove.
 */
import { database, rowsOf } from '../api/database';
import { localized } from '../common/format';

export interface UnitName {
  id: string;
  name: string;
}

export async function loadUnitNames(locale: string): Promise<UnitName[]> {
  const rows = rowsOf(await database.from('products').select('id,name').is('deleted_at', null));
  return rows.map((row) => ({ id: row.id, name: localized(row.name, locale) })).sort((a, b) => a.name.localeCompare(b.name, locale));
}

/** What to add and what to remove to go from `current` to `wanted`. */
export function linkChanges(current: readonly string[], wanted: readonly string[]): { added: string[]; removed: string[] } {
  return { added: wanted.filter((id) => !current.includes(id)), removed: current.filter((id) => !wanted.includes(id)) };
}

/** A MultiLanguageString's text as the pages edit it (one name): its default, the other languages kept. */
export const withDefaultText = (stored: Record<string, string> | null | undefined, text: string) => ({ ...stored, default: text.trim() });
