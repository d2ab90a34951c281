/**
 * Plan → ONE statement `{ text, values }` returning one row: `total` (exact count or null), `page_total` (rows in
 * this page), `body` (the response body as text, built by PostgreSQL). Planned counts add a separate EXPLAIN of
 * `countText` (PostgREST does the same).
 */
import type { MediaType } from '../parse/types.js';
import type { CountMode, Plan, ReadNode, RpcPlan } from '../plan/types.js';
import { deleteSql, INSERTED_FLAG, insertSql, updateSql } from './mutate.js';
import { outputNames } from '../plan/read.js';
import { functionSourceSql, nodeSelectSql } from './read.js';
import { Params, quoteIdent } from './quote.js';

export interface Statement {
  text: string;
  values: (string | null)[];
  /** For `count=planned`/`estimated`: a query whose EXPLAIN row estimate is the total. */
  countText?: string;
  countValues?: (string | null)[];
}

const T = quoteIdent('pgrst_t');

/** A header field, quoted when it holds a comma, a quote or a line break (a column name rarely does). */
function csvHeaderField(value: string): string {
  return value === '' || /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** `node`'s output names are only needed for the CSV header line: computed only then. */
function bodySql(media: MediaType, node: ReadNode, params: Params): string {
  if (media === 'object') return `coalesce((json_agg(${T}) -> 0)::text, '')`;
  if (media === 'csv') {
    const header = params.add(outputNames(node).map(csvHeaderField).join(','));
    // PostgREST writes each row as PostgreSQL's text of the row value without its parentheses: a field is quoted
    // when it is empty or holds a comma, a quote, a backslash, a parenthesis or white space (`'cat' 'fat'` is);
    // quotes are doubled and backslashes too; NULL is an empty unquoted field.
    const row = `substring(${T}::text, 2, length(${T}::text) - 2)`;
    return `coalesce(${header}::text || E'\\n' || string_agg(${row}, E'\\n'), ${header}::text)`;
  }
  return `coalesce(json_agg(${T}), '[]'::json)::text`;
}

/** The rows the node matches, all of them, or at most `limit` (`count=estimated`). */
function countSql(node: ReadNode, params: Params, limit: number | undefined): string {
  const inner = nodeSelectSql(node, params, { projection: '1', unpaged: true, filteringLateralsOnly: true });
  const bound = limit === undefined ? '' : ` LIMIT ${Math.trunc(limit)}`;
  return `(SELECT count(*) FROM (${inner}${bound}) AS ${quoteIdent('pgrst_c')})`;
}

/**
 * `count=estimated` of a read counts at most `countLimit` rows (PostgREST's db-max-rows + 1): a count that reaches it
 * says only "more than db-max-rows", and the planner's estimate stands in (run.ts), so the count costs O(max-rows)
 * however many rows match. PostgREST counts a function's rows exactly (no bound: `countLimit` undefined).
 */
function readStatement(node: ReadNode, count: CountMode, media: MediaType, countLimit?: number): Statement {
  const params = new Params();
  let total = 'NULL::bigint';
  if (count === 'exact') total = countSql(node, params, undefined);
  if (count === 'estimated') total = countSql(node, params, countLimit);
  const page = nodeSelectSql(node, params);
  const body = bodySql(media, node, params);
  const text = `SELECT ${total} AS total, count(*) AS page_total, ${body} AS body FROM (${page}) AS ${T}`;
  const statement: Statement = { text, values: params.values };
  if (count === 'planned' || count === 'estimated') {
    const countParams = new Params();
    statement.countText = nodeSelectSql(node, countParams, { projection: '1', unpaged: true, filteringLateralsOnly: true });
    statement.countValues = countParams.values;
  }
  return statement;
}

/**
 * A function returning a scalar or a set of scalars. `Prefer: count=exact` (or estimated) counts every value the
 * call returns (1 for a single scalar); a NULL result is the JSON `null`, as PostgREST answers it.
 */
function rpcScalarStatement(plan: RpcPlan): Statement {
  const params = new Params();
  const alias = quoteIdent('pgrst_scalar');
  const source = plan.node.source;
  if (source.kind !== 'function') throw new Error('rpc plan without function source');
  const from = functionSourceSql(source, alias, params);
  const counted = plan.count === 'exact' || plan.count === 'estimated';
  if (plan.routine.returnsSet) {
    const limit = plan.node.limit === undefined ? '' : ` LIMIT ${Math.trunc(plan.node.limit)}`;
    const offset = plan.node.offset > 0 ? ` OFFSET ${Math.trunc(plan.node.offset)}` : '';
    const all = quoteIdent('pgrst_all');
    const source = `SELECT ${alias} FROM ${from}`;
    const text = counted
      ? `WITH ${all} AS MATERIALIZED (${source}) ` +
        `SELECT (SELECT count(*) FROM ${all}) AS total, count(*) AS page_total, coalesce(json_agg(${alias}.${alias}), '[]'::json)::text AS body ` +
        `FROM (SELECT ${alias} FROM ${all} AS ${alias}${limit}${offset}) AS ${alias}`
      : `SELECT NULL::bigint AS total, count(*) AS page_total, coalesce(json_agg(${alias}.${alias}), '[]'::json)::text AS body ` +
        `FROM (${source}${limit}${offset}) AS ${alias}`;
    return { text, values: params.values };
  }
  const total = counted ? '1::bigint' : 'NULL::bigint';
  const text = `SELECT ${total} AS total, 1 AS page_total, coalesce(to_json(${alias})::text, 'null') AS body FROM ${from}`;
  return { text, values: params.values };
}

export interface StatementLimits {
  /** PostgREST's db-max-rows: `count=estimated` of a table read counts one row beyond it at most (none: null). */
  maxRows?: number | null | undefined;
}

export function buildStatement(plan: Plan, limits: StatementLimits = {}): Statement {
  switch (plan.type) {
    case 'options':
      throw new Error('OPTIONS has no statement');
    case 'read':
      return readStatement(plan.node, plan.count, plan.media, limits.maxRows === undefined || limits.maxRows === null ? undefined : limits.maxRows + 1);
    case 'rpc': {
      if (plan.scalar) return rpcScalarStatement(plan);
      const media = !plan.routine.returnsSet && plan.media === 'json' ? 'object' : plan.media;
      return readStatement(plan.node, plan.count, media);
    }
    case 'insert':
    case 'update':
    case 'delete': {
      const params = new Params();
      const cte = plan.type === 'insert' ? insertSql(plan, params) : plan.type === 'update' ? updateSql(plan, params) : deleteSql(plan, params);
      const wantsBody = plan.preferences.return === 'representation' || plan.preferences.return === 'headers-only';
      let page: string;
      let body: string;
      if (plan.preferences.return === 'headers-only' && plan.type === 'insert') {
        const pk = plan.table.primaryKey.map((c) => `${quoteIdent(plan.returning.alias)}.${quoteIdent(c)}`).join(', ');
        page = `SELECT ${pk === '' ? '' : pk} FROM ${quoteIdent('pgrst_source')} AS ${quoteIdent(plan.returning.alias)}`;
        body = `coalesce(json_agg(${T}), '[]'::json)::text`;
      } else if (wantsBody) {
        page = nodeSelectSql(plan.returning, params, { unpaged: true });
        body = bodySql(plan.media, plan.returning, params);
      } else {
        page = `SELECT FROM ${quoteIdent('pgrst_source')}`;
        body = `''`;
      }
      const inserted =
        plan.type === 'insert' && plan.onConflict?.resolution === 'merge-duplicates'
          ? `(SELECT count(*) FROM ${quoteIdent('pgrst_source')} WHERE ${INSERTED_FLAG})`
          : 'NULL::bigint';
      // Rows changed, for `max-affected`: only asked for when it applies, so other writes keep their statement.
      const affected =
        plan.type !== 'insert' && plan.preferences.handling === 'strict' && plan.preferences.maxAffected !== undefined
          ? `(SELECT count(*) FROM ${quoteIdent('pgrst_source')})`
          : 'NULL::bigint';
      const text =
        `WITH ${quoteIdent('pgrst_source')} AS (${cte}) ` +
        `SELECT NULL::bigint AS total, count(*) AS page_total, ${body} AS body, ${inserted} AS inserted, ${affected} AS affected FROM (${page}) AS ${T}`;
      return { text, values: params.values };
    }
  }
}

