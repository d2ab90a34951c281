/**
 * Which migration holds the definition in effect of a function, and which one created a trigger, found by reading
 * the migration files' text (the catalogs do not record it). The last file that creates or replaces an object is the
 * one whose text the database runs; earlier copies are history. Cheap text matching, so an object made by dynamic
 * SQL under another spelling is reported as not found (null) rather than guessed.
 */
import type { Migration } from '../../src/db/migrate.js';

/** `name` as an SQL identifier may be written: bare or double-quoted. */
const ident = (name: string) => `"?${name.replace(/[$]/g, '\\$&')}"?`;

type Accept = (match: RegExpMatchArray, migration: Migration) => boolean;

function lastMatch(migrations: readonly Migration[], pattern: RegExp, accept: Accept = () => true): string | null {
  for (let i = migrations.length - 1; i >= 0; i -= 1) {
    const migration = migrations[i]!;
    for (const match of migration.sql.matchAll(pattern)) if (accept(match, migration)) return migration.id;
  }
  return null;
}

/** The text between the parenthesis that ends at `start` - 1 and its closing one (strings and comments aside). */
function parenthesised(sql: string, start: number): string {
  let depth = 1;
  for (let i = start; i < sql.length; i += 1) {
    if (sql[i] === '(') depth += 1;
    else if (sql[i] === ')' && --depth === 0) return sql.slice(start, i);
  }
  return sql.slice(start);
}

/** The input parameters a parameter list declares: every one but OUT ones (as pg_proc.pronargs counts). */
function inputCount(parameters: string): number {
  const list: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of parameters.replace(/--[^\n]*/g, '')) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      list.push(current);
      current = '';
    } else current += char;
  }
  list.push(current);
  return list.filter((p) => p.trim() !== '' && !/^\s*OUT\s/i.test(p)).length;
}

export interface Sources {
  /**
   * The migration with the last `CREATE [OR REPLACE] FUNCTION schema.name(` of `inputs` input parameters (overloads
   * are told apart by their number of parameters only); null if none.
   */
  functionDefinedIn(schema: string, name: string, inputs: number): string | null;
  /**
   * The migration that last created trigger `name` on `schema.table`, also in a `format(… ON api.%I …)` loop over
   * tables (then the one naming the table, or the last that ran once the table existed); null if not found.
   */
  triggerCreatedIn(schema: string, table: string, name: string): string | null;
}

export function migrationSources(migrations: readonly Migration[]): Sources {
  return {
    functionDefinedIn(schema, name, inputs) {
      const pattern = new RegExp(
        `CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:FUNCTION|PROCEDURE)\\s+(?:${ident(schema)}\\.)${ident(name)}\\s*\\(`, 'gi');
      return lastMatch(migrations, pattern,
        (match, migration) => inputCount(parenthesised(migration.sql, match.index! + match[0].length)) === inputs);
    },
    triggerCreatedIn(schema, table, name) {
      const pattern = new RegExp(
        `CREATE\\s+(?:OR\\s+REPLACE\\s+)?(?:CONSTRAINT\\s+)?TRIGGER\\s+${ident(name)}\\s[\\s\\S]{0,300}?\\sON\\s+([\\w."%]+)`, 'gi');
      const target = (match: RegExpMatchArray) => (match[1] ?? '').replace(/"/g, '').toLowerCase();
      const loop = (match: RegExpMatchArray) => target(match).startsWith(`${schema}.%`);
      // A loop (`format('CREATE TRIGGER … ON api.%I …', t)`) reaches only tables that existed when it ran.
      const tableFrom = migrations.findIndex((m) =>
        new RegExp(`CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${ident(schema)}\\.${ident(table)}[\\s(]`, 'i').test(m.sql));
      const later = tableFrom < 0 ? [] : migrations.slice(tableFrom);
      // The trigger created on this table by name; else by a loop in a file that names the table in quotes (the
      // loop's list); else by the last loop that ran once the table existed (a loop over the catalog); else null.
      return lastMatch(migrations, pattern, (m) => target(m) === `${schema}.${table}`)
        ?? lastMatch(later, pattern, (m, migration) => loop(m) && migration.sql.includes(`'${table}'`))
        ?? lastMatch(later, pattern, loop);
    },
  };
}
