/**
 * The columns of a reports table, each saying how a row is shown and what its CSV export holds for it (plain numbers
 * — amounts in major units, occupancy 0 to 1 — that a spreadsheet sums), so the file has the rows and columns on the
 * screen. No imports, so Node's test runner loads it too (test/dashboard/report-figures.test.ts).
 */
export interface ReportColumn<Row> {
  label: string;
  /** How the page shows it. */
  shown: (row: Row) => string;
  /** What the CSV holds: empty for nothing (null). */
  exported: (row: Row) => string | number | null;
  numeric?: boolean;
}

function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** RFC 4180: a header line of the labels, a line per row, CRLF line ends. */
export function toCsv<Row>(columns: readonly ReportColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((column) => csvField(column.label)), ...rows.map((row) => columns.map((column) => csvField(column.exported(row))))];
  return `${lines.map((fields) => fields.join(',')).join('\r\n')}\r\n`;
}
