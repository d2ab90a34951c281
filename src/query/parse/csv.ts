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
    const afterQuotes = wasQuoted && ch !== ',' && ch !== '\n' && ch !== '\r';
    if (afterQuotes || (ch === '"' && (field !== '' || wasQuoted))) {
      throw invalidBody(`Malformed CSV in row ${rows.length + 1}: a quote may only enclose a whole field ("…", with "" for a quote inside)`);
    }
    if (ch === '"') {
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

/** CSV text → the header's column names and the JSON array text of the rows as objects keyed by them. */
export function csvToJson(text: string): { columns: string[]; json: string } {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.length === 0) throw invalidBody('Empty CSV body');
  if (header.some((name) => name === null || name.trim() === '')) throw invalidBody('The CSV header has an empty column name');
  const duplicate = header.find((name, index) => header.indexOf(name) !== index);
  if (duplicate !== undefined) throw invalidBody(`The CSV header names the column "${duplicate}" twice`);
  const objects = rows.map((cells, index) => {
    if (cells.length !== header.length) throw invalidBody(`CSV row ${index + 2} has ${cells.length} fields, expected ${header.length}`);
    const object: Record<string, string | null> = {};
    header.forEach((name, column) => {
      object[name ?? ''] = cells[column] ?? null;
    });
    return object;
  });
  return { columns: header, json: JSON.stringify(objects) };
}
