/**
 * Relationships derived from foreign keys, by PostgREST's rules: a FK from T to R gives T → R many-to-one and
 * R → T one-to-many (one-to-one both ways when the FK columns are T's primary key or a unique key); a table J with
 * FKs to A and B whose columns are all part of J's primary key is a junction: A ↔ B many-to-many. Only tables of
 * the exposed schema take part. A function taking one table's row type and returning another table's rows is a
 * computed relationship between them (to-many for SETOF, to-one otherwise), embedded by the function's name.
 */
import type { ForeignKey, Relationship, Routine, Table } from './types.js';

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function isSubset(a: readonly string[], b: readonly string[]): boolean {
  return a.every((x) => b.includes(x));
}

function isOneToOne(table: Table, fk: ForeignKey): boolean {
  if (fk.oneToOne !== undefined) return fk.oneToOne;
  if (table.primaryKey.length > 0 && sameSet(fk.columns, table.primaryKey)) return true;
  return table.uniqueKeys.some((key) => sameSet(fk.columns, key));
}

export function deriveRelationships(
  schema: string,
  tables: Map<string, Table>,
  routines: ReadonlyMap<string, Routine[]> = new Map(),
): Map<string, Relationship[]> {
  const result = new Map<string, Relationship[]>();
  const add = (rel: Relationship): void => {
    const list = result.get(rel.table) ?? [];
    list.push(rel);
    result.set(rel.table, list);
  };
  const inSchema = (fk: ForeignKey): boolean => fk.refSchema === schema && tables.has(fk.refTable);

  for (const table of tables.values()) {
    for (const fk of table.foreignKeys) {
      if (!inSchema(fk)) continue;
      const oneToOne = isOneToOne(table, fk);
      const isSelf = fk.refTable === table.name;
      add({
        cardinality: oneToOne ? 'one-to-one' : 'many-to-one',
        table: table.name,
        foreignTable: fk.refTable,
        constraint: fk.name,
        columns: fk.columns,
        foreignColumns: fk.refColumns,
        fkOnTableSide: true,
        isSelf,
        junction: null,
      });
      add({
        cardinality: oneToOne ? 'one-to-one' : 'one-to-many',
        table: fk.refTable,
        foreignTable: table.name,
        constraint: fk.name,
        columns: fk.refColumns,
        foreignColumns: fk.columns,
        fkOnTableSide: false,
        isSelf,
        junction: null,
      });
    }
  }

  for (const junction of tables.values()) {
    const fks = junction.foreignKeys.filter(
      (fk) => inSchema(fk) && fk.refTable !== junction.name && isSubset(fk.columns, junction.primaryKey),
    );
    for (const fk1 of fks) {
      for (const fk2 of fks) {
        if (fk1 === fk2) continue;
        add({
          cardinality: 'many-to-many',
          table: fk1.refTable,
          foreignTable: fk2.refTable,
          constraint: junction.name,
          columns: fk1.refColumns,
          foreignColumns: fk2.refColumns,
          fkOnTableSide: false,
          isSelf: fk1.refTable === fk2.refTable,
          junction: {
            table: junction.name,
            constraint1: fk1.name,
            sourceColumns: fk1.columns,
            sourceRefColumns: fk1.refColumns,
            constraint2: fk2.name,
            targetColumns: fk2.columns,
            targetRefColumns: fk2.refColumns,
          },
        });
      }
    }
  }
  for (const overloads of routines.values()) {
    for (const routine of overloads) {
      const origin = routine.rowArgTable;
      const target = routine.returnsTable;
      if (!origin || !target || !tables.has(origin) || !tables.has(target)) continue;
      add({
        cardinality: routine.returnsSet ? 'one-to-many' : 'many-to-one',
        table: origin,
        foreignTable: target,
        constraint: routine.name,
        columns: [],
        foreignColumns: [],
        fkOnTableSide: !routine.returnsSet,
        isSelf: origin === target,
        junction: null,
        computed: routine,
      });
    }
  }
  return result;
}
