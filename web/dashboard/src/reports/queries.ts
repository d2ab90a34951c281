/**
 * What the reports page reads: the units' months of /v1/report_unit_months for the chosen months and the same months
 * a year earlier (one request each), the pickup of the coming months (/v1/report_unit_pickup), and the names of every unit — deleted ones too, whose past still counts in a
 * report. A session needs `reports:read` for the first (docs/reports.md#access); every member reads `products`.
 */
import { database, rowsOf } from '../api/database';
import { addMonths } from '../common/dates';
import { yearBefore, type PickupRow, type UnitMonth } from './figures';

const MONTH_COLUMNS = 'product_id,month,currency,available_nights,booked_nights,revenue,bookings,bookings_api,bookings_dashboard,bookings_site,bookings_widget,bookings_import';

export interface ReportFilters {
  /** First and last month shown, `YYYY-MM-01`, both included. */
  from: string;
  to: string;
  /** The units chosen; empty: every unit. */
  units: readonly string[];
}

async function unitMonths(from: string, to: string, units: readonly string[]): Promise<UnitMonth[]> {
  let query = database.from('report_unit_months').select(MONTH_COLUMNS).gte('month', from).lt('month', addMonths(to, 1));
  if (units.length > 0) query = query.in('product_id', [...units]);
  return rowsOf(await query.order('month').order('product_id'));
}

export async function loadReport(filters: ReportFilters): Promise<{ rows: UnitMonth[]; lastYearRows: UnitMonth[] }> {
  const [rows, lastYearRows] = await Promise.all([
    unitMonths(filters.from, filters.to, filters.units),
    unitMonths(yearBefore(filters.from), yearBefore(filters.to), filters.units),
  ]);
  return { rows, lastYearRows };
}

/** The nights of `months` by the day they were booked (/v1/report_unit_pickup), for the chosen units. */
export async function loadPickup(months: readonly string[], units: readonly string[]): Promise<PickupRow[]> {
  if (months.length === 0) return [];
  let query = database.from('report_unit_pickup').select('month,booked_on,booked_nights').in('month', [...months]);
  if (units.length > 0) query = query.in('product_id', [...units]);
  return rowsOf(await query.order('booked_on'));
}

export const loadAllUnitNames = async () => rowsOf(await database.from('products').select('id,name,deleted_at').order('created_at'));

/** The first day of every month from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = addMonths(month, 1)) months.push(month);
  return months;
}
