/**
 * Which relationship an embed `target!hint` of `origin` means, by PostgREST v12's `findRel` rules: the target is a
 * table name (or, without hint, a FK constraint name or a single FK column of the origin, naming the referenced table
 * and not the views over it); a hint names the FK
 * constraint, a single column on either side, or the junction table of a many-to-many. In a self-relationship the
 * bare table name means the one-to-many (children) and the FK column the many-to-one (parent); with a hint, the
 * table name plus the FK column means the one-to-many.
 *
 * Staykit deviation (unless `strict`, as `staykit rest` asks): when several candidates remain but exactly one is
 * direct (not many-to-many), that one is chosen instead of PostgREST's PGRST201 — every tenant table references
 * `organizations`, which would otherwise make any two tables sharing a junction ambiguous.
 */
import { ambiguousRelationship, noRelationship } from '../../errors/catalogue.js';
import type { Relationship, SchemaCache } from '../../schema/types.js';
import { closest } from './fuzzy.js';

function single(columns: string[]): string | undefined {
  return columns.length === 1 ? columns[0] : undefined;
}

/** FK columns on the FK-holding side and the referenced columns, whatever the direction. */
function fkSides(rel: Relationship): { local: string | undefined; foreign: string | undefined } {
  return { local: single(rel.columns), foreign: single(rel.foreignColumns) };
}

/** PostgREST's "is view": a view or a materialized view. */
function isView(cache: SchemaCache, name: string): boolean {
  const kind = cache.tables.get(name)?.kind;
  return kind === 'view' || kind === 'materialized_view';
}

function matches(rel: Relationship, target: string, hint: string | undefined, foreignIsView: boolean): boolean {
  // A computed relationship is named by its function, without a hint.
  if (rel.computed) return hint === undefined && target === rel.constraint;
  const { local, foreign } = fkSides(rel);
  const isM2M = rel.cardinality === 'many-to-many';
  const isO2M = rel.cardinality === 'one-to-many' || (rel.cardinality === 'one-to-one' && !rel.fkOnTableSide);
  const isM2O = rel.cardinality === 'many-to-one' || (rel.cardinality === 'one-to-one' && rel.fkOnTableSide);
  if (rel.isSelf && !isM2M) {
    if (hint === undefined) {
      return (target === rel.foreignTable && isO2M) || (isM2O && local === target);
    }
    return target === rel.foreignTable && isO2M && foreign === hint;
  }
  if (hint === undefined) {
    // A constraint or column name means the table it references, never a view over it (PostgREST: a view carries
    // the table's keys, so `username(*)` would otherwise also name every view of `users`).
    return (
      target === rel.foreignTable ||
      (!isM2M && !foreignIsView && rel.constraint === target) ||
      (!isM2M && !foreignIsView && isM2O && local === target)
    );
  }
  if (target !== rel.foreignTable) return false;
  if (isM2M) return rel.junction?.table === hint;
  return rel.constraint === hint || local === hint || foreign === hint;
}

function describe(rel: Relationship): { cardinality: string; embedding: string; relationship: string; hintName: string } {
  const fmt = (cols: string[]): string => `(${cols.join(', ')})`;
  if (rel.junction) {
    const j = rel.junction;
    return {
      cardinality: 'many-to-many',
      embedding: `${rel.table} with ${rel.foreignTable}`,
      relationship: `${j.table} using ${j.constraint1}${fmt(j.sourceColumns)} and ${j.constraint2}${fmt(j.targetColumns)}`,
      hintName: `${rel.foreignTable}!${j.table}`,
    };
  }
  return {
    cardinality: rel.cardinality,
    embedding: `${rel.table} with ${rel.foreignTable}`,
    relationship: `${rel.constraint} using ${rel.table}${fmt(rel.columns)} and ${rel.foreignTable}${fmt(rel.foreignColumns)}`,
    hintName: `${rel.foreignTable}!${rel.constraint}`,
  };
}

export function findRelationship(
  cache: SchemaCache,
  origin: string,
  target: string,
  hint: string | undefined,
  strict = false,
): Relationship {
  const all = cache.relationships.get(origin) ?? [];
  const candidates = all.filter((rel) => matches(rel, target, hint, isView(cache, rel.foreignTable)));
  if (candidates.length === 1) return candidates[0] as Relationship;
  // PostgREST: a computed relationship overrides a foreign-key one of the same name.
  const computed = candidates.filter((rel) => rel.computed !== undefined);
  if (computed.length === 1) return computed[0] as Relationship;
  if (candidates.length === 0) {
    let suggestion: string | null = null;
    if (!cache.relationships.has(origin)) {
      const parent = closest(origin, cache.relationships.keys(), 0.33);
      if (parent) suggestion = `Perhaps you meant '${parent}' instead of '${origin}'.`;
    } else {
      const child = closest(target, new Set(all.map((rel) => rel.foreignTable)), 0.33);
      if (child) suggestion = `Perhaps you meant '${child}' instead of '${target}'.`;
    }
    throw noRelationship(cache.schema, origin, target, hint, suggestion);
  }
  const direct = candidates.filter((rel) => rel.cardinality !== 'many-to-many');
  if (!strict && direct.length === 1) return direct[0] as Relationship;
  throw ambiguousRelationship(origin, target, candidates.map(describe));
}

export function isToOne(rel: Relationship): boolean {
  return rel.cardinality === 'many-to-one' || rel.cardinality === 'one-to-one';
}
