/**
 * A configuration as its editor holds it, and back: periods as first and last day (a person reads the last day that
 * is included; the stored `datemultirange` has exclusive ends), money in the currency's units, everything else as
 * stored. `CONFIGURATION_SELECT` is the one list of columns the editor reads and writes.
 */
import type { Selected, TablesInsert } from '../api/database';
import type { ConfigurationRate } from '../api/json-columns';
import { addDays } from '../common/dates';
import { editedTexts, storedTexts, type EditedTexts } from './language-texts';
import { dateRanges } from './intervals';

export const CONFIGURATION_SELECT = 'id,name,color,order,intervals,min_duration,max_duration,check_in_days,checkout_days,min_advance,max_advance,cooldown_time,rates,early_bird_adjustments,last_minute_adjustments,long_rent_adjustments';
export type StoredConfiguration = Selected<'product_configurations', typeof CONFIGURATION_SELECT>;

/** The multirange of every date: a configuration without periods of its own applies always. */
const EVERY_DATE = '{(,)}';

export interface ConfigurationForm {
  name: EditedTexts;
  color: string;
  order: number;
  /** Inclusive [first, last] days; empty: every date. */
  periods: { first: string; last: string }[];
  min_duration: number;
  max_duration: number;
  check_in_days: boolean[];
  checkout_days: boolean[];
  min_advance: number;
  max_advance: number;
  cooldown_time: number;
  rates: ConfigurationRate[];
  early_bird_adjustments: StoredConfiguration['early_bird_adjustments'];
  last_minute_adjustments: StoredConfiguration['last_minute_adjustments'];
  long_rent_adjustments: StoredConfiguration['long_rent_adjustments'];
}

export function newConfiguration(order: number): ConfigurationForm {
  const everyDay = Array<boolean>(7).fill(true);
  return {
    name: { default: '', nl: '', de: '' }, color: '#4f46e5', order, periods: [], min_duration: 1, max_duration: 0,
    check_in_days: everyDay, checkout_days: everyDay, min_advance: 0, max_advance: 0, cooldown_time: 0,
    rates: [{ duration: 1, occupancy: 0, rate: 0 }], early_bird_adjustments: [], last_minute_adjustments: [], long_rent_adjustments: [],
  };
}

export function configurationForm({ id: _id, name, intervals, ...rest }: StoredConfiguration): ConfigurationForm {
  return { ...rest, name: editedTexts(name), periods: dateRanges(intervals).map(({ start, end }) => ({ first: start, last: addDays(end, -1) })) };
}

export function configurationBody(form: ConfigurationForm, stored?: StoredConfiguration): Omit<TablesInsert<'product_configurations'>, 'product_id' | 'id'> {
  const { periods, name, ...rest } = form;
  const intervals = periods.length === 0 ? EVERY_DATE : `{${periods.map(({ first, last }) => `[${first},${addDays(last, 1)})`).join(',')}}`;
  return { ...rest, name: storedTexts(name, stored?.name), intervals };
}
