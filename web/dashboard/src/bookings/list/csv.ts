/** A CSV file from rows of text (RFC 4180: fields quoted when they hold a comma, a quote or a line break), downloaded. */

const field = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

export function toCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Saves `text` as a file named `name` through the browser's download. */
export function download(name: string, text: string): void {
  // A byte order mark, so that spreadsheet programs read the accents of guests' names as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
