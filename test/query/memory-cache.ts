/** A hand-built SchemaCache for unit tests of plan and SQL (no database). */
import { deriveRelationships } from '../../src/schema/relationships.js';
import { type Column, type SchemaCache, type Table } from '../../src/schema/types.js';

function column(name: string, type = 'integer', udtName = 'int4', extra: Partial<Column> = {}): Column {
  return {
    name,
    type,
    udtName,
    nullable: true,
    defaultExpr: null,
    hasDefault: false,
    identity: false,
    generated: false,
    isArray: false,
    elementType: null,
    enumValues: null,
    comment: null,
    canSelect: true,
    canInsert: true,
    canUpdate: true,
    ...extra,
  };
}

function table(name: string, columns: Column[], extra: Partial<Table> = {}): Table {
  return {
    schema: 'api',
    name,
    kind: 'table',
    comment: null,
    columns,
    primaryKey: ['id'],
    uniqueKeys: [],
    foreignKeys: [],
    privileges: { select: true, insert: true, update: true, delete: true },
    ...extra,
  };
}

export function memoryCache(): SchemaCache {
  const text = (name: string): Column => column(name, 'text', 'text');
  const tables = [
    table('clients', [column('id'), text('name'), column('org_id')]),
    table('projects', [column('id'), text('name'), column('client_id'), column('org_id'), column('tags', 'text[]', '_text')], {
      foreignKeys: [
        { name: 'projects_client_id_fkey', table: 'projects', columns: ['client_id'], refSchema: 'api', refTable: 'clients', refColumns: ['id'] },
      ],
    }),
    table('readonly', [column('id'), text('line')], {
      privileges: { select: true, insert: false, update: false, delete: false },
    }),
    table('generated', [column('id'), text('name'), column('upper', 'text', 'text', { generated: true, canInsert: false, canUpdate: false })]),
  ];
  const map = new Map(tables.map((t) => [t.name, t]));
  return { schema: 'api', role: 'test', tables: map, relationships: deriveRelationships('api', map), routines: new Map(), computedFields: new Map(), timezones: new Set() };
}
