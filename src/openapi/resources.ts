/**
 * The generic resource endpoints in OpenAPI: for each table of the schema cache, the path `/<table>` with exactly
 * the methods the API role may use (the same `allowedMethods` the engine answers OPTIONS and 405 with), PostgREST's
 * query parameters and headers, and three schemas — the row as read, the body of a POST (insertable columns;
 * required = NOT NULL without default) and the body of a PATCH (updatable columns).
 */
import { allowedMethods } from '../query/plan/index.js';
import type { Column, SchemaCache, Table } from '../schema/types.js';
import type { CheckConstraints } from './check-enums.js';
import { columnSchema, type JsonSchema } from './json-schema.js';
import { sharedSchemas } from './components.js';
import { objectExample } from './examples.js';

export const TENANT_COLUMN = 'organization_id';

const ref = (kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** A column the client never writes: no INSERT and no UPDATE privilege (ids, timestamps, `fts`, the tenant, …). */
export function isServerOwned(column: Column): boolean {
  return column.generated || column.name === TENANT_COLUMN || (!column.canInsert && !column.canUpdate);
}

function isRequiredOnInsert(column: Column): boolean {
  return column.canInsert && !column.nullable && !column.hasDefault && !column.identity && !column.generated;
}

function schemaOf(table: Table, column: Column, checks: CheckConstraints): JsonSchema {
  return columnSchema(column, {
    enumValues: checks.enums.get(table.name)?.get(column.name),
    predicate: checks.predicates.get(table.name)?.get(column.name),
  });
}

/** `components.schemas` for one table: `<t>`, `<t>.create` (when POST is allowed), `<t>.update` (when PATCH is). */
export function tableSchemas(table: Table, checks: CheckConstraints): Record<string, JsonSchema> {
  const visible = table.columns.filter((column) => column.canSelect);
  const row: JsonSchema = {
    type: 'object',
    ...(table.comment ? { description: table.comment } : {}),
    properties: Object.fromEntries(visible.map((column) => {
      const schema = schemaOf(table, column, checks);
      if (isServerOwned(column) && (table.privileges.insert || table.privileges.update)) schema.readOnly = true;
      return [column.name, schema];
    })),
    required: visible.filter((column) => !column.nullable).map((column) => column.name),
  };
  row.example = objectExample(row, visible.map((column) => column.name), sharedSchemas);
  const schemas: Record<string, JsonSchema> = { [table.name]: row };
  if (table.privileges.insert) {
    const writable = table.columns.filter((column) => column.canInsert && !isServerOwned(column));
    const required = writable.filter(isRequiredOnInsert).map((column) => column.name);
    const create: JsonSchema = {
      type: 'object',
      description: `A new ${table.name} row. Server-owned columns (${serverOwnedList(table)}) are set by the server and ignored when sent (400 SK407 under \`Prefer: handling=strict\`).`,
      properties: Object.fromEntries(writable.map((column) => [column.name, schemaOf(table, column, checks)])),
      ...(required.length > 0 ? { required } : {}),
    };
    create.example = objectExample(create, required, sharedSchemas);
    schemas[`${table.name}.create`] = create;
  }
  if (table.privileges.update) {
    const writable = table.columns.filter((column) => column.canUpdate && !isServerOwned(column));
    schemas[`${table.name}.update`] = {
      type: 'object',
      description: `The fields to change on every ${table.name} row the filters match.`,
      properties: Object.fromEntries(writable.map((column) => [column.name, schemaOf(table, column, checks)])),
      minProperties: 1,
    };
  }
  return schemas;
}

function serverOwnedList(table: Table): string {
  return table.columns.filter(isServerOwned).map((column) => `\`${column.name}\``).join(', ') || 'none';
}

/** Operators, said once in the document's description (document.ts); each filter parameter points at it. */
export const FILTER_OPERATORS =
  'A filter is a query parameter named after a column, valued `<operator>.<value>`: `eq`, `neq`, `gt`, `gte`, `lt`, ' +
  '`lte`, `like` and `ilike` (`*` is the wildcard: `like.*son`), `match`/`imatch` (regex), `in.(a,b)`, ' +
  '`is.null|true|false`, `isdistinct`, `cs`/`cd`/`ov` (contains, contained in, overlaps: `cs.{a,b}`), `fts`/`plfts`/' +
  '`phfts`/`wfts` (full-text search), range operators `sl sr nxr nxl adj`; prefix `not.` to negate. Several filters ' +
  'all apply; `or=(…)` and `and=(…)` combine them.';

/** `components.parameters` key of a column filter. */
export const filterParameterName = (table: Table, column: Column) => `${table.name}.${column.name}`;

/**
 * Query parameters PostgREST always reads as themselves: a column with one of these names (`order` is common) can
 * be selected and ordered by, but filtered only inside `or=(…)`/`and=(…)`, so no filter parameter is offered for it.
 */
const RESERVED_PARAMETERS = new Set(['select', 'columns', 'order', 'limit', 'offset', 'on_conflict', 'or', 'and']);

/** The columns offered as filter parameters: readable, and not named like one of PostgREST's own parameters. */
const filterableColumns = (table: Table): Column[] =>
  table.columns.filter((column) => column.canSelect && !RESERVED_PARAMETERS.has(column.name));

/** `components.parameters`: one filter parameter per filterable column, shared by GET, PATCH and DELETE. */
export function filterParameters(table: Table, checks: CheckConstraints): Record<string, JsonSchema> {
  return Object.fromEntries(filterableColumns(table).map((column) => {
    // No `example`: reference pages pre-fill "try it" with examples, and an optional filter must start empty.
    const type = schemaOf(table, column, checks);
    const values = Array.isArray(type.enum) ? (type.enum as unknown[]).filter((value) => value !== null) : [];
    const hint = values.length > 0 ? ` Values: ${values.map((value) => `\`${String(value)}\``).join(', ')}.` : '';
    return [filterParameterName(table, column), {
      name: column.name,
      in: 'query',
      required: false,
      description: `${column.comment ? `${column.comment} ` : ''}Filter: \`<operator>.<value>\`, e.g. \`eq.${String(values[0] ?? '…')}\`.${hint}`,
      schema: { type: 'string' },
    }];
  }));
}

function rowsContent(table: Table): JsonSchema {
  const rows = { type: 'array', items: ref('schemas', table.name) };
  return {
    'application/json': { schema: rows },
    'application/vnd.pgrst.object+json': { schema: ref('schemas', table.name) },
  };
}

/**
 * The list operation's note on fast orders: `x-indexed-order` (machine-readable) and a sentence of its description.
 * Nothing without index information.
 */
function indexedOrder(orderIndexed: readonly string[] | undefined): { note: string; extension: JsonSchema } {
  if (orderIndexed === undefined) return { note: '', extension: {} };
  const names = orderIndexed.map((column) => `\`${column}\``).join(', ');
  const note = orderIndexed.length > 0
    ? ` \`order\` is index-backed on ${names}; ordering by another column sorts every matching row, which grows with the organization's rows.`
    : ` No column of this table has an index for \`order\`: ordering sorts every matching row.`;
  return { note, extension: { 'x-indexed-order': [...orderIndexed] } };
}

export function tablePathItem(table: Table, orderIndexed?: readonly string[]): JsonSchema {
  const allowed = new Set(allowedMethods(table).split(','));
  const tags = [table.name];
  const filters = filterableColumns(table).map((column) => ref('parameters', filterParameterName(table, column)));
  const auth = [ref('responses', 'Unauthorized'), ref('responses', 'Forbidden')];
  const errors = (...names: string[]) => Object.fromEntries([
    ...names.map((name) => [ERROR_STATUS[name], ref('responses', name)]),
    ['401', auth[0]], ['403', auth[1]],
  ]);
  const item: JsonSchema = {};
  const summary = table.comment ? ` ${table.comment}` : '';
  if (allowed.has('GET')) {
    const order = indexedOrder(orderIndexed);
    item.get = {
      tags,
      operationId: `list_${table.name}`,
      summary: `List ${table.name}`,
      description: `Rows of \`${table.name}\` of your organization, at most 1000 per response, ordered by the primary key unless \`order\` is given.${order.note}${summary}`,
      ...order.extension,
      parameters: [
        ref('parameters', 'select'), ...filters, ref('parameters', 'or'), ref('parameters', 'and'),
        ref('parameters', 'order'), ref('parameters', 'limit'), ref('parameters', 'offset'),
        ref('parameters', 'Range'), ref('parameters', 'Range-Unit'), ref('parameters', 'preferRead'), ref('parameters', 'Accept'),
      ],
      responses: {
        200: {
          description: 'The rows (an empty array when none match).',
          headers: { 'Content-Range': ref('headers', 'Content-Range') },
          content: { ...rowsContent(table), 'text/csv': { schema: { type: 'string' } } },
        },
        206: {
          description: 'Partial content: a page of a larger result (with `Prefer: count=…`).',
          headers: { 'Content-Range': ref('headers', 'Content-Range') },
          content: rowsContent(table),
        },
        ...errors('BadRequest', 'NotAcceptable', 'RangeNotSatisfiable'),
      },
    };
  }
  if (allowed.has('POST')) {
    const body = ref('schemas', `${table.name}.create`);
    item.post = {
      tags,
      operationId: `create_${table.name}`,
      summary: `Create ${table.name}`,
      description: 'One object or an array of objects (at most 1000). With `Prefer: resolution=merge-duplicates` an upsert on the primary key or `on_conflict`.',
      parameters: [
        ref('parameters', 'select'), ref('parameters', 'columns'), ref('parameters', 'on_conflict'),
        ref('parameters', 'preferWrite'),
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { oneOf: [body, { type: 'array', items: body, maxItems: 1000 }] },
          },
          'text/csv': { schema: { type: 'string' } },
        },
      },
      responses: {
        201: {
          description: 'Created. The rows are returned with `Prefer: return=representation`; `return=headers-only` adds `Location`.',
          content: rowsContent(table),
        },
        200: { description: 'Upsert where every row already existed (with `return=representation`).', content: rowsContent(table) },
        ...errors('BadRequest', 'Conflict', 'PayloadTooLarge'),
      },
    };
  }
  if (allowed.has('PATCH')) {
    item.patch = {
      tags,
      operationId: `update_${table.name}`,
      summary: `Update ${table.name}`,
      description: 'Applies the object to every row the filters match. At least one filter is required (400 SK400).',
      parameters: [ref('parameters', 'select'), ...filters, ref('parameters', 'or'), ref('parameters', 'and'), ref('parameters', 'preferWrite')],
      requestBody: { required: true, content: { 'application/json': { schema: ref('schemas', `${table.name}.update`) } } },
      responses: {
        204: { description: 'Updated.', headers: { 'Content-Range': ref('headers', 'Content-Range') } },
        200: { description: 'The updated rows (with `Prefer: return=representation`).', content: rowsContent(table) },
        ...errors('BadRequest', 'Conflict'),
      },
    };
  }
  if (allowed.has('DELETE')) {
    item.delete = {
      tags,
      operationId: `delete_${table.name}`,
      summary: `Delete ${table.name}`,
      description: `Deletes every row the filters match. At least one filter is required (400 SK400).${table.name === 'coupons' ? ' A coupon is soft-deleted: `deleted_at` is set and the row stays readable.' : ''}`,
      parameters: [ref('parameters', 'select'), ...filters, ref('parameters', 'or'), ref('parameters', 'and'), ref('parameters', 'preferWrite')],
      responses: {
        204: { description: 'Deleted.' },
        200: { description: 'The deleted rows (with `Prefer: return=representation`).', content: rowsContent(table) },
        ...errors('BadRequest', 'Conflict'),
      },
    };
  }
  return item;
}

export const ERROR_STATUS: Record<string, string> = {
  BadRequest: '400',
  Unauthorized: '401',
  Forbidden: '403',
  NotFound: '404',
  UriTooLong: '414',
  NotAcceptable: '406',
  Conflict: '409',
  PayloadTooLarge: '413',
  RangeNotSatisfiable: '416',
  UnprocessableContent: '422',
};

/** The tables shown, in name order: those the API role can read. */
export function exposedTables(cache: SchemaCache): Table[] {
  return [...cache.tables.values()].filter((table) => table.columns.some((column) => column.canSelect))
    .sort((a, b) => a.name.localeCompare(b.name));
}
