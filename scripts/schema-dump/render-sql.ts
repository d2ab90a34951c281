/**
 * schema/schema.sql: the catalog (./catalog.ts) as SQL a reader can search — per schema its sequences, tables (with
 * columns, constraints, indexes, row-level security, policies, grants and triggers together) and functions, each
 * under a `-- ---` header line, in name order. Comments of the objects are written as `--` lines above them.
 */
import type { Catalog, ColumnInfo, FunctionInfo, Grant, PolicyInfo, RelationInfo, RoleInfo, SequenceInfo } from './catalog.js';
import type { Sources } from './sources.js';

/** The role that ran the migrations (it owns every object) has a different name on every machine. */
const OWNER = 'CURRENT_USER';
const PRIVILEGE_ORDER = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER', 'MAINTAIN', 'USAGE', 'CREATE', 'EXECUTE'];

/** How names are written: identifiers as quote_ident writes them (keywords from the database), roles as GRANT does. */
interface Names {
  ident(name: string): string;
  role(name: string | null): string;
}

function namesFor(keywords: ReadonlySet<string>): Names {
  const ident = (name: string) => (/^[a-z_][a-z0-9_$]*$/.test(name) && !keywords.has(name) ? name : `"${name.replace(/"/g, '""')}"`);
  return { ident, role: (name) => (name === null ? OWNER : name === 'PUBLIC' ? name : ident(name)) };
}

/** `text` as `--` lines, indented by `indent`. */
function commentLines(text: string | null, indent = ''): string[] {
  if (text === null || text === '') return [];
  return text.split('\n').map((line) => `${indent}-- ${line}`.trimEnd());
}

function header(title: string): string[] {
  return ['', `-- ${'-'.repeat(3)} ${title}`];
}

const byPrivilege = (a: string, b: string) => PRIVILEGE_ORDER.indexOf(a) - PRIVILEGE_ORDER.indexOf(b);

/** GRANT statements, one per grantee (and column set), privileges in a fixed order. */
function grantLines(q: Names, grants: readonly Grant[], on: string): string[] {
  const groups = new Map<string, { privileges: string[]; columns: string[] }>();
  for (const grant of grants) {
    const key = JSON.stringify([q.role(grant.grantee), grant.grantable, grant.column === null ? null : grant.privilege]);
    const group = groups.get(key) ?? { privileges: [], columns: [] };
    if (grant.column === null) group.privileges.push(grant.privilege);
    else {
      group.privileges = [grant.privilege];
      group.columns.push(q.ident(grant.column));
    }
    groups.set(key, group);
  }
  return [...groups].map(([key, { privileges, columns }]) => {
    const [grantee, grantable] = JSON.parse(key) as [string, boolean];
    const what = [...new Set(privileges)].sort(byPrivilege).join(', ') + (columns.length > 0 ? ` (${columns.join(', ')})` : '');
    return `GRANT ${what} ON ${on} TO ${grantee}${grantable ? ' WITH GRANT OPTION' : ''};`;
  });
}

function roleLines(q: Names, roles: readonly RoleInfo[]): string[] {
  if (roles.length === 0) return [];
  const lines = [...header('Roles (cluster-wide; CURRENT_USER is the role that ran the migrations)')];
  for (const { name, login, inherit, bypassRls } of roles) {
    const options = [login ? 'LOGIN' : 'NOLOGIN', inherit ? '' : 'NOINHERIT', bypassRls ? 'BYPASSRLS' : ''].filter(Boolean);
    lines.push(`CREATE ROLE ${q.ident(name)} ${options.join(' ')};`);
  }
  for (const { name, members } of roles) for (const member of members) lines.push(`GRANT ${q.ident(name)} TO ${q.role(member)};`);
  return lines;
}

function columnLine(q: Names, column: ColumnInfo): string {
  const parts = [q.ident(column.name), column.type];
  if (column.collation) parts.push(`COLLATE ${column.collation}`);
  if (column.generated) parts.push(`GENERATED ALWAYS AS (${column.default ?? ''}) ${column.generated === 's' ? 'STORED' : 'VIRTUAL'}`);
  else if (column.default !== null) parts.push(`DEFAULT ${column.default}`);
  if (column.identity) parts.push(`GENERATED ${column.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`);
  if (column.notNull) parts.push('NOT NULL');
  return parts.join(' ');
}

function policyLine(q: Names, policy: PolicyInfo, table: string): string {
  const roles = policy.roles.map(q.role).join(', ');
  return `CREATE POLICY ${q.ident(policy.name)} ON ${table} AS ${policy.permissive ? 'PERMISSIVE' : 'RESTRICTIVE'} FOR ${policy.command}`
    + ` TO ${roles}${policy.using === null ? '' : ` USING (${policy.using})`}${policy.check === null ? '' : ` WITH CHECK (${policy.check})`};`;
}

function relationLines(q: Names, relation: RelationInfo): string[] {
  const table = relation.qualified;
  const kind = { r: 'TABLE', p: 'TABLE', v: 'VIEW', m: 'MATERIALIZED VIEW' }[relation.kind];
  const lines = [...header(`${kind.toLowerCase()} ${table}`), ...commentLines(relation.comment)];
  if (relation.viewDefinition !== null) {
    const options = relation.options === null ? '' : ` WITH (${relation.options.join(', ')})`;
    lines.push(`CREATE ${kind} ${table}${options} AS`, relation.viewDefinition.replace(/;\s*$/, '') + ';');
  } else {
    const body = [
      ...relation.columns.map((column) => ({ comment: column.comment, line: columnLine(q, column) })),
      ...relation.constraints.map((constraint) => ({ comment: constraint.comment, line: `CONSTRAINT ${q.ident(constraint.name)} ${constraint.definition}` })),
    ];
    lines.push(`CREATE TABLE ${table} (`);
    body.forEach(({ comment, line }, i) => lines.push(...commentLines(comment, '    '), `    ${line}${i < body.length - 1 ? ',' : ''}`));
    lines.push(relation.partitionKey === null ? ');' : `) PARTITION BY ${relation.partitionKey};`);
  }
  for (const partition of relation.partitions) lines.push(`CREATE TABLE ${partition.name} PARTITION OF ${table} ${partition.bound};`);
  if (relation.kind === 'p') {
    lines.push('-- Monthly partitions (<table>_pYYYY_MM) are left out: which exist depends on the date the migrations ran.');
  }
  for (const index of relation.indexes) lines.push(...commentLines(index.comment), `${index.definition};`);
  if (relation.rowSecurity) lines.push(`ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY;`);
  if (relation.forceRowSecurity) lines.push(`ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;`);
  for (const policy of relation.policies) lines.push(...commentLines(policy.comment), policyLine(q, policy, table));
  lines.push(...grantLines(q, relation.grants, `TABLE ${table}`));
  for (const trigger of relation.triggers) {
    lines.push(...commentLines(trigger.comment), `${trigger.definition};`);
    if (trigger.enabled !== 'O') {
      const state = { D: 'DISABLE', R: 'ENABLE REPLICA', A: 'ENABLE ALWAYS' }[trigger.enabled] ?? `tgenabled ${trigger.enabled}`;
      lines.push(`ALTER TABLE ${table} ${state} TRIGGER ${q.ident(trigger.name)};`);
    }
  }
  return lines;
}

function sequenceLines(q: Names, sequence: SequenceInfo): string[] {
  return [
    ...header(`sequence ${sequence.qualified}`), ...commentLines(sequence.comment),
    `CREATE SEQUENCE ${sequence.qualified} ${sequence.definition}${sequence.ownedBy === null ? '' : ` OWNED BY ${sequence.ownedBy}`};`,
    ...grantLines(q, sequence.grants, `SEQUENCE ${sequence.qualified}`),
  ];
}

function functionLines(q: Names, fn: FunctionInfo, sources: Sources): string[] {
  const source = sources.functionDefinedIn(fn.schema, fn.name, fn.inputs);
  return [
    ...header(`${fn.kind.toLowerCase()} ${fn.signature}${source === null ? '' : ` — defined in migrations/${source}.sql`}`),
    ...commentLines(fn.comment),
    `${fn.definition.trimEnd()};`,
    ...grantLines(q, fn.grants, `${fn.kind} ${fn.signature}`),
  ];
}

export function renderSchemaSql(catalog: Catalog, sources: Sources, preamble: readonly string[]): string {
  const q = namesFor(catalog.keywords);
  const lines = [...preamble];
  if (catalog.extensions.length > 0) lines.push(...header('Extensions'), ...catalog.extensions.map((name) => `CREATE EXTENSION ${q.ident(name)};`));
  lines.push(...roleLines(q, catalog.roles));
  for (const schema of catalog.schemas) {
    lines.push('', `-- ${'='.repeat(100)}`, ...header(`schema ${schema.name}`), ...commentLines(schema.comment));
    lines.push(`CREATE SCHEMA ${q.ident(schema.name)};`, ...grantLines(q, schema.grants, `SCHEMA ${q.ident(schema.name)}`));
    for (const sequence of catalog.sequences.filter((s) => s.schema === schema.name)) lines.push(...sequenceLines(q, sequence));
    for (const relation of catalog.relations.filter((r) => r.schema === schema.name)) lines.push(...relationLines(q, relation));
    for (const fn of catalog.functions.filter((f) => f.schema === schema.name)) lines.push(...functionLines(q, fn, sources));
  }
  return `${lines.join('\n')}\n`;
}
