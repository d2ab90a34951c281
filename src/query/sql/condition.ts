/** Conditions → SQL: every filter operator of PostgREST, values always as parameters. */
import type { JsonOperation, Operation } from '../parse/types.js';
import type { ColumnExpr, Condition } from '../plan/types.js';
import { Params, qualified, quoteIdent, safeTypeName } from './quote.js';

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'citext', 'name']);

export function jsonPathSql(path: JsonOperation[], params: Params): string {
  return path
    .map((op) => {
      if (op.isIndex) {
        if (!/^-?[0-9]+$/.test(op.key)) throw new Error('bad json index');
        return `${op.arrow}${Number(op.key)}`;
      }
      return `${op.arrow}${params.add(op.key)}::text`;
    })
    .join('');
}

export function columnSql(alias: string, expr: ColumnExpr, params: Params): string {
  // A computed field is its function called with the row (PostgREST's computed fields).
  const base = expr.computed
    ? `${qualified(expr.computed.schema, expr.computed.name)}(${quoteIdent(alias)})`
    : `${quoteIdent(alias)}.${quoteIdent(expr.column)}`;
  return expr.jsonPath.length === 0 ? base : `(${base}${jsonPathSql(expr.jsonPath, params)})`;
}

function isText(expr: ColumnExpr): boolean {
  const last = expr.jsonPath[expr.jsonPath.length - 1];
  if (last) return last.arrow === '->>';
  return expr.info !== undefined && TEXT_TYPES.has(expr.info.udtName);
}

/** `{"a","b"}`: a PostgreSQL array literal of text elements. */
export function arrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

const SIMPLE_SQL: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
  isdistinct: 'IS DISTINCT FROM',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};

/** Operators whose right side gets the column's own type (range/array/json operators are overloaded). */
const TYPED_RIGHT = new Set(['cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj']);

const FTS_FUNCTION = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
} as const;

export function operationSql(column: string, expr: ColumnExpr, operation: Operation, params: Params): string {
  switch (operation.kind) {
    case 'is':
      return `${column} IS ${operation.value.toUpperCase()}`;
    case 'in':
      return `${column} = ANY(${params.add(arrayLiteral(operation.values))})`;
    case 'fts': {
      const lang = operation.language === undefined ? '' : `${params.add(operation.language)}::regconfig, `;
      const vector = expr.info?.udtName === 'tsvector' && expr.jsonPath.length === 0 ? column : `to_tsvector(${lang}${column})`;
      return `${vector} @@ ${FTS_FUNCTION[operation.operator]}(${lang}${params.add(operation.value)})`;
    }
    case 'simple': {
      const op = SIMPLE_SQL[operation.operator] as string;
      const isPattern = operation.operator === 'like' || operation.operator === 'ilike';
      const isRegex = operation.operator === 'match' || operation.operator === 'imatch';
      const left = (isPattern || isRegex) && !isText(expr) ? `${column}::text` : column;
      const value = isPattern ? operation.value.replace(/\*/g, '%') : operation.value;
      if (operation.quantifier) {
        return `${left} ${op} ${operation.quantifier.toUpperCase()}(${params.add(value)})`;
      }
      let right = params.add(value);
      if (TYPED_RIGHT.has(operation.operator) && expr.jsonPath.length === 0 && expr.info) {
        right = `${right}::${safeTypeName(expr.info.type)}`;
      }
      return `${left} ${op} ${right}`;
    }
  }
}

/** Resolves an embed-null condition's alias to SQL; supplied by the read builder. */
export function conditionSql(alias: string, condition: Condition, params: Params): string {
  switch (condition.kind) {
    case 'tenant':
      return `${quoteIdent(alias)}.${quoteIdent(condition.column)} = ${params.add(condition.value)}`;
    case 'embed-null':
      return `${quoteIdent(condition.embedAlias)}.${quoteIdent('pgrst_body')} IS ${condition.negated ? 'NOT ' : ''}NULL`;
    case 'filter': {
      const column = columnSql(alias, condition.expr, params);
      const sql = operationSql(column, condition.expr, condition.operation, params);
      return condition.negated ? `NOT (${sql})` : sql;
    }
    case 'logic': {
      const joined = condition.children.map((child) => conditionSql(alias, child, params)).join(
        condition.operator === 'and' ? ' AND ' : ' OR ',
      );
      return `${condition.negated ? 'NOT ' : ''}(${joined})`;
    }
  }
}

/** Whether any condition (deeply) names the embed alias. */
export function mentionsEmbed(conditions: Condition[], embedAlias: string): boolean {
  return conditions.some((c) =>
    c.kind === 'embed-null' ? c.embedAlias === embedAlias : c.kind === 'logic' ? mentionsEmbed(c.children, embedAlias) : false,
  );
}
