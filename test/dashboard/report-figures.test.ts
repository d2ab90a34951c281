/** The reports page's sums of /v1/report_unit_months rows and its CSV (pure: no browser, no database). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { channelMix, compareMonths, compareUnits, figuresOf, pickupCurve, totalsCurrency, yearBefore, type UnitMonth } from '../../web/dashboard/src/reports/figures.js';
import { toCsv, type ReportColumn } from '../../web/dashboard/src/reports/csv.js';

const row = (productId: string, month: string, currency: string, booked: number, available: number, revenue: number, sources: Partial<UnitMonth> = {}): UnitMonth => ({
  product_id: productId, month, currency, available_nights: available, booked_nights: booked, revenue, bookings: 0,
  bookings_api: 0, bookings_dashboard: 0, bookings_site: 0, bookings_widget: 0, bookings_import: 0, ...sources,
});

it('sums nights before dividing: occupancy and ADR of two units are not the average of theirs', () => {
  // A: 10 of 30 nights, 100000 rent; B: 1 of 2 nights (blocked most of the month), 5000 rent.
  const figures = figuresOf([row('a', '2027-06-01', 'EUR', 10, 30, 100000), row('b', '2027-06-01', 'EUR', 1, 2, 5000)], 'EUR');
  assert.equal(figures.occupancy, 11 / 32, 'not (1/3 + 1/2) / 2');
  assert.equal(figures.adr, Math.round(105000 / 11));
  assert.equal(figures.revenue, 105000);
});

it('adds money in one currency only; a unit in another still counts in occupancy', () => {
  const rows = [row('a', '2027-06-01', 'EUR', 10, 30, 100000), row('b', '2027-06-01', 'GBP', 20, 30, 999999)];
  const figures = figuresOf(rows, 'EUR');
  assert.equal(figures.occupancy, 30 / 60);
  assert.equal(figures.revenue, 100000);
  assert.equal(figures.adr, 10000, 'rent per booked night of the EUR unit');
  assert.equal(totalsCurrency(rows, 'EUR'), 'EUR');
  assert.equal(totalsCurrency(rows, 'USD'), 'EUR', 'the most used when the organization\'s is not among them (a tie: the first)');
  assert.deepEqual(compareUnits(rows, []).map((unit) => [unit.productId, unit.currency, unit.current.revenue, unit.lastYear.occupancy]),
    [['a', 'EUR', 100000, null], ['b', 'GBP', 999999, null]], 'each unit in its own currency; no last-year rows: no occupancy');
});

it('nothing available and nothing booked: no occupancy and no ADR, not 0', () => {
  const figures = figuresOf([row('a', '2027-06-01', 'EUR', 0, 0, 0)], 'EUR');
  assert.equal(figures.occupancy, null);
  assert.equal(figures.adr, null);
});

it('puts each month beside the same month a year earlier', () => {
  assert.equal(yearBefore('2027-02-01'), '2026-02-01');
  const months = compareMonths(['2027-01-01', '2027-02-01'],
    [row('a', '2027-01-01', 'EUR', 3, 31, 30000), row('a', '2027-02-01', 'EUR', 7, 28, 70000)],
    [row('a', '2026-02-01', 'EUR', 14, 28, 126000)], 'EUR');
  assert.deepEqual(months.map((month) => [month.month, month.current.occupancy, month.lastYear.occupancy, month.lastYear.adr]),
    [['2027-01-01', 3 / 31, null, null], ['2027-02-01', 7 / 28, 14 / 28, 9000]]);
});

it('counts the period\'s bookings by source', () => {
  const mix = channelMix([
    row('a', '2027-01-01', 'EUR', 0, 31, 0, { bookings_import: 2, bookings_widget: 1 }),
    row('b', '2027-01-01', 'EUR', 0, 31, 0, { bookings_import: 1, bookings_api: 4 }),
  ]);
  assert.deepEqual(mix, [
    { source: 'dashboard', bookings: 0 }, { source: 'widget', bookings: 1 }, { source: 'site', bookings: 0 },
    { source: 'import', bookings: 3 }, { source: 'api', bookings: 4 },
  ]);
});

it('writes the CSV of the table\'s columns, quoting what needs it and leaving nothing empty', () => {
  const columns: ReportColumn<{ name: string; occupancy: number | null }>[] = [
    { label: 'Unit', shown: (unit) => unit.name, exported: (unit) => unit.name },
    { label: 'Occupancy', shown: () => 'not exported', exported: (unit) => unit.occupancy },
  ];
  assert.equal(toCsv(columns, [{ name: 'Dune "Big" House, north', occupancy: 0.25 }, { name: 'Loft', occupancy: null }]),
    'Unit,Occupancy\r\n"Dune ""Big"" House, north",0.25\r\nLoft,\r\n');
});

it('draws a month\'s pickup: nights on the books over its available nights, summed day by day up to today', () => {
  const rows = [
    { month: '2027-06-01', booked_on: '2027-04-15', booked_nights: 5 },
    { month: '2027-06-01', booked_on: '2027-03-01', booked_nights: 7 },
    { month: '2027-06-01', booked_on: '2027-03-01', booked_nights: 3 },
    { month: '2027-07-01', booked_on: '2027-03-01', booked_nights: 9 },
  ];
  assert.deepEqual(pickupCurve(rows, '2027-06-01', 30, '2027-05-20'), [
    { daysBefore: 92, onTheBooks: 10 / 30 }, { daysBefore: 47, onTheBooks: 15 / 30 }, { daysBefore: 12, onTheBooks: 15 / 30 },
  ]);
  assert.deepEqual(pickupCurve(rows, '2027-06-01', 30, '2027-04-15').at(-1), { daysBefore: 47, onTheBooks: 0.5 }, 'booked today: no extra point');
  assert.deepEqual(pickupCurve(rows, '2027-06-01', 0, '2027-05-20'), [], 'nothing available: no curve');
});
