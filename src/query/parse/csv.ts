/**
 * CSV request bodies (`Content-Type: text/csv` on POST), RFC 4180: the first line names the columns; an unquoted
 * `NULL` is SQL NULL, as in PostgREST. Turned into the JSON array the insert reads.
 */
import { invalidBody } from '../../errors/catalogue.js';

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: (string | null)[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  let i = 0;
  const endField = (): void => {
    row.push(!wasQuoted && field === 'NULL' ? null : field);
    field = '';
    wasQuoted = false;
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && field === '') {
      quoted = true;
      wasQuoted = true;
    } else if (ch === ',') endField();
    else if (ch === '\n' || ch === '\r') {
      endField();
      rows.push(row as string[]);
      row = [];
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
    } else field += ch;
    i += 1;
  }
  if (quoted) throw invalidBody('Unterminated quoted field in CSV body');
  if (field !== '' || wasQuoted || row.length > 0) {
    endField();
    rows.push(row as string[]);
  }
  return rows;
}

/** CSV text → JSON array text of objects keyed by the header. */
export function csvToJson(text: string): string {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.length === 0) throw invalidBody('Empty CSV body');
  const objects = rows.map((cells, index) => {
    if (cells.length !== header.length) throw invalidBody(`CSV row ${index + 2} has ${cells.length} fields, expected ${header.length}`);
    const object: Record<string, string | null> = {};
    header.forEach((name, column) => {
      object[name ?? ''] = cells[column] ?? null;
    });
    return object;
  });
  return JSON.stringify(objects);
}
