/**
 * The one way identifiers enter SQL text. Values never do: they go through `Params` as `$n`.
 */

/** `name` → `"name"` with embedded quotes doubled. NUL cannot be part of an identifier. */
export function quoteIdent(name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains NUL');
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"schema"."name"`. */
export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/**
 * Type names come from the catalog (`format_type`) or from a `::cast` in `select`, which the parser restricts to
 * letters, digits, `_`, spaces and a trailing `[]`; this re-checks that before the name is written into SQL.
 */
export function safeTypeName(type: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_ ,()."]*(\[\])*$/.test(type)) throw new Error(`unsafe type name: ${type}`);
  return type;
}

/** Collects parameter values; `add` returns the placeholder (`$1`, `$2`, …). */
export class Params {
  readonly values: (string | null)[] = [];
  add(value: string | null): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
