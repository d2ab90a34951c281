/**
 * Bounds on the filters whose cost grows with their value: `like`/`ilike`/`match`/`imatch` patterns and
 * `fts`/`plfts`/`phfts`/`wfts` queries may be at most `maxLength` characters (each element of an `(any)`/`(all)`
 * list, and the list as written), and `match`/`imatch` patterns must be free of the forms that make PostgreSQL's
 * regex engine slow (src/query/parse/regex-safety.ts). Checked before planning: 400 PGRST100.
 */
import { patternTooLong, unsafePattern } from '../../errors/catalogue.js';
import { unsafeRegexReason } from './regex-safety.js';
import type { Filter, LogicTree, QueryParams } from './types.js';

export const DEFAULT_MAX_PATTERN_LENGTH = 1000;

const PATTERN_OPERATORS = new Set(['like', 'ilike', 'match', 'imatch']);
const REGEX_OPERATORS = new Set(['match', 'imatch']);

/**
 * The elements of a PostgreSQL array literal `{a,"b,c"}` as PostgreSQL reads them: backslash escapes any
 * character, quoted or not; unquoted elements are trimmed.
 */
export function arrayElements(literal: string): string[] {
  const inner = literal.trim().replace(/^\{/, '').replace(/\}$/, '');
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < inner.length; i += 1) {
    const char = inner[i]!;
    if (char === '\\') {
      current += inner[i + 1] ?? '';
      i += 1;
    } else if (char === '"') {
      // Whitespace around a quoted element is not part of it.
      if (!quoted && !wasQuoted && current.trim() === '') current = '';
      quoted = !quoted;
      wasQuoted = true;
    } else if (!quoted && wasQuoted && /\s/.test(char)) {
      continue;
    } else if (char === ',' && !quoted) {
      elements.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else {
      current += char;
    }
  }
  elements.push(wasQuoted ? current : current.trim());
  return elements;
}

function checkFilter(filter: Filter, maxLength: number): void {
  const { operation } = filter;
  const column = filter.field.name;
  if (operation.kind === 'fts') {
    if (operation.value.length > maxLength) throw patternTooLong(column, maxLength, operation.value.length);
    return;
  }
  if (operation.kind !== 'simple' || !PATTERN_OPERATORS.has(operation.operator)) return;
  if (operation.value.length > maxLength) throw patternTooLong(column, maxLength, operation.value.length);
  if (!REGEX_OPERATORS.has(operation.operator)) return;
  const patterns = operation.quantifier === undefined ? [operation.value] : arrayElements(operation.value);
  for (const pattern of patterns) {
    const reason = unsafeRegexReason(pattern);
    if (reason !== undefined) throw unsafePattern(column, reason);
  }
}

function checkTree(tree: LogicTree, maxLength: number): void {
  if (tree.type === 'filter') checkFilter(tree.filter, maxLength);
  else for (const child of tree.children) checkTree(child, maxLength);
}

export function checkPatterns(query: QueryParams, maxLength = DEFAULT_MAX_PATTERN_LENGTH): void {
  for (const { filter } of query.filters) checkFilter(filter, maxLength);
  for (const { tree } of query.logic) checkTree(tree, maxLength);
}
