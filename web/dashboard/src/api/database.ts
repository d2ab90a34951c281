/**
 * postgrest-js against this server's /v1, with the session cookie and CSRF token, typed by the API it ships with:
 * `Database` is the generated type (schema/database.types.ts, made from the migrations by `npm run schema:dump`) with the
 * JSON columns in their shapes (json-columns.ts). A select, filter or write naming a column the API does not have
 * fails the dashboard's typecheck, and so does a row type (`Row`, `Selected`) built on one.
 */
import { PostgrestClient, type PostgrestSingleResponse, type UnstableGetResult } from '@supabase/postgrest-js';
import type { Database as Generated } from '../../../../schema/database.types';
import type { JsonShapes } from './json-columns';
import { toApiError } from './errors';
import { sessionFetch } from './http';

type GeneratedTables = Generated['api']['Tables'];

/** `Columns` with the JSON ones in their shapes (one that cannot be written stays `never`). */
type Shaped<Columns, Shapes> = {
  [Column in keyof Columns]: Column extends keyof Shapes ? [Columns[Column]] extends [never] ? never : Shapes[Column] : Columns[Column];
};

type ShapedTables = {
  [Name in keyof GeneratedTables]: Name extends keyof JsonShapes ? {
    Row: Shaped<GeneratedTables[Name]['Row'], JsonShapes[Name]>;
    Insert: Shaped<GeneratedTables[Name]['Insert'], JsonShapes[Name]>;
    Update: Shaped<GeneratedTables[Name]['Update'], JsonShapes[Name]>;
    Relationships: GeneratedTables[Name]['Relationships'];
  } : GeneratedTables[Name];
};

export type Database = { api: { [Key in keyof Generated['api']]: Key extends 'Tables' ? ShapedTables : Generated['api'][Key] } };
type Schema = Database['api'];

export type TableName = keyof Schema['Tables'];
/** A table's row as the API returns it: `Row<'bookings'>`. */
export type Row<Name extends TableName> = Schema['Tables'][Name]['Row'];
/** What an insert into a table accepts: `TablesInsert<'permissions'>`. */
export type TablesInsert<Name extends TableName> = Schema['Tables'][Name]['Insert'];
/** The values of a closed value set (a CHECK list): `Enums<'members_role'>`. */
export type Enums<Name extends keyof Schema['Enums']> = Schema['Enums'][Name];
/**
 * Every value of a closed value set, for a list the page offers: one missing (a value a migration added) or one the
 * set does not have fails the typecheck. `valuesOf<'members_role'>()('owner', 'admin', …)`.
 */
export const valuesOf = <Name extends keyof Schema['Enums']>() =>
  <const Values extends readonly Enums<Name>[]>(...values: Values & ([Exclude<Enums<Name>, Values[number]>] extends [never] ? unknown : never)): Values => values;
/** The row a select of `Query` on `Name` returns, embeds included, as postgrest-js types it: `Selected<'products', 'id,name'>`. */
export type Selected<Name extends TableName, Query extends string> =
  UnstableGetResult<Schema, Row<Name>, Name, Schema['Tables'][Name]['Relationships'], Query>;
/** `Shape` with the parts a member may not be allowed to read optional: the request leaves them out then (`when`). */
export type Permitted<Shape, Parts extends keyof Shape> = Omit<Shape, Parts> & Partial<Pick<Shape, Parts>>;

export const database = new PostgrestClient<Database>(`${window.location.origin}/v1`, { fetch: sessionFetch });

type Joined<Parts extends readonly string[]> = Parts extends readonly [infer First extends string, ...infer Rest extends readonly string[]]
  ? Rest extends readonly [] ? First : `${First},${Joined<Rest>}`
  : never;

/**
 * A select list made of `parts`, leaving out the empty ones (what `when` refused). It is typed as every part joined,
 * so postgrest-js checks each column and embed; the row type marks the parts that may be left out optional (`Permitted`).
 */
export function selectList<const Parts extends readonly string[]>(...parts: Parts): Joined<Parts> {
  return parts.filter((part) => part !== '').join(',') as Joined<Parts>;
}

/** `part` of a select list when the member may read it, else nothing (asking for it would refuse the whole request). */
export function when<const Part extends string>(allowed: boolean, part: Part): Part {
  return (allowed ? part : '') as Part;
}

/**
 * The rows of an `embed!inner(…)` select, each with that embed. PostgREST leaves out the rows without one, but
 * postgrest-js 1.x still types a many-to-one embed as possibly null; this keeps the type and the rows in step.
 */
export function innerJoined<Shape, Embed extends keyof Shape>(rows: Shape[], embed: Embed): (Shape & { [Key in Embed]: NonNullable<Shape[Key]> })[] {
  return rows.filter((row): row is Shape & { [Key in Embed]: NonNullable<Shape[Key]> } => row[embed] !== null);
}

/** The rows of a postgrest-js result (null for `maybeSingle` and writes without a select), or the API's error thrown. */
export function rowsOf<T>(result: PostgrestSingleResponse<T>): T {
  if (result.error) throw toApiError(result.error, result.status);
  return result.data;
}
