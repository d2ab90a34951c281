/**
 * Reads what the migrations made from the system catalogs, for the schema dump (scripts/schema-dump.ts). SQL against
 * the catalogs, not pg_dump, because PGlite has no pg_dump; every name and expression is printed by PostgreSQL's own
 * pg_get_* functions under an empty search_path, so every name comes out schema-qualified the same way on any
 * machine. Rows are ordered here, by byte order (COLLATE "C"), so the dump does not depend on the database's locale.
 * No OIDs and no owner names are returned: the role that ran the migrations is reported as `owner: true` or mapped
 * to CURRENT_USER by the renderer.
 */
import type { Database, Queryable } from '../../src/db/types.js';

/** The schemas the migrations own: every schema but PostgreSQL's own and `public` (extension objects only). */
const PROJECT_SCHEMA = `n.nspname !~ '^pg_' AND n.nspname NOT IN ('information_schema', 'public')`;
/** Objects an extension created (btree_gist's functions and operator classes) belong to the extension, not to us. */
const NOT_FROM_EXTENSION = (catalog: string, oid: string) =>
  `NOT EXISTS (SELECT 1 FROM pg_depend AS d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;
/** Monthly log partitions (<table>_pYYYY_MM) are made for the months around the day the migrations ran. */
const DATED_PARTITION = `'_p[0-9]{4}_[0-9]{2}$'`;

export interface Grant {
  /** The role's name, `PUBLIC`, or null for the role that ran the migrations. */
  grantee: string | null;
  privilege: string;
  grantable: boolean;
  /** Set for a column privilege. */
  column: string | null;
}

export interface SchemaInfo { name: string; comment: string | null; grants: Grant[] }

export interface ColumnInfo {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  /** `s` stored generated column, `v` virtual (PostgreSQL 18), or empty. */
  generated: string;
  /** `a` GENERATED ALWAYS AS IDENTITY, `d` BY DEFAULT, or empty. */
  identity: string;
  collation: string | null;
  comment: string | null;
}

export interface ConstraintInfo { name: string; definition: string; comment: string | null }
/** A foreign key of another table (or this one) that points at this table. */
export interface ReferenceInfo { table: string; name: string; onDelete: string; onUpdate: string }
export interface IndexInfo { name: string; definition: string; comment: string | null }
export interface PolicyInfo {
  name: string;
  permissive: boolean;
  command: string;
  /** Role names, `PUBLIC`, or null for the role that ran the migrations. */
  roles: (string | null)[];
  using: string | null;
  check: string | null;
  comment: string | null;
}

export interface TriggerInfo {
  name: string;
  definition: string;
  /** BEFORE, AFTER or INSTEAD OF. */
  timing: 'BEFORE' | 'AFTER' | 'INSTEAD OF';
  row: boolean;
  events: string[];
  /** Columns of `UPDATE OF`, empty for any update. */
  updateColumns: string[];
  when: string | null;
  /** A constraint trigger: null if not, else whether it waits for COMMIT by default. */
  deferred: boolean | null;
  enabled: string;
  function: string;
  /** The arguments written in CREATE TRIGGER, as SQL literals. */
  arguments: string | null;
  comment: string | null;
}

export interface RelationInfo {
  schema: string;
  name: string;
  /** `r` table, `p` partitioned table, `v` view, `m` materialized view. */
  kind: 'r' | 'p' | 'v' | 'm';
  qualified: string;
  comment: string | null;
  partitionKey: string | null;
  /** Partitions that do not depend on the date the migrations ran: `name` and its bound. */
  partitions: { name: string; bound: string }[];
  viewDefinition: string | null;
  /** Storage options, e.g. a view's `security_invoker=true`; null when none. */
  options: string[] | null;
  rowSecurity: boolean;
  forceRowSecurity: boolean;
  columns: ColumnInfo[];
  constraints: ConstraintInfo[];
  indexes: IndexInfo[];
  policies: PolicyInfo[];
  triggers: TriggerInfo[];
  referencedBy: ReferenceInfo[];
  grants: Grant[];
}

export interface SequenceInfo {
  schema: string;
  qualified: string;
  definition: string;
  ownedBy: string | null;
  comment: string | null;
  grants: Grant[];
}

export interface FunctionInfo {
  schema: string;
  name: string;
  /** `schema.name(argument types)`, as regprocedure prints it. */
  signature: string;
  kind: 'FUNCTION' | 'PROCEDURE';
  /** Its input parameters (pg_proc.pronargs). */
  inputs: number;
  definition: string;
  comment: string | null;
  grants: Grant[];
}

export interface RoleInfo {
  name: string;
  login: boolean;
  inherit: boolean;
  bypassRls: boolean;
  /** Roles (or null: the role that ran the migrations) this role is granted to. */
  members: (string | null)[];
}

export interface Catalog {
  /** Keywords an identifier must be quoted to be (what quote_ident quotes). */
  keywords: Set<string>;
  extensions: string[];
  roles: RoleInfo[];
  schemas: SchemaInfo[];
  relations: RelationInfo[];
  sequences: SequenceInfo[];
  functions: FunctionInfo[];
}

/** The entries of `acl` (an aclitem[] expression), without the owner's own privileges. */
function grantsOf(acl: string, owner: string, column = 'NULL::text'): string {
  return `SELECT CASE WHEN e.grantee = 0 THEN 'PUBLIC' WHEN pg_get_userbyid(e.grantee) = current_user THEN NULL
                      ELSE pg_get_userbyid(e.grantee)::text END AS grantee,
                 e.privilege_type AS privilege, e.is_grantable AS grantable, ${column} AS "column"
          FROM aclexplode(${acl}) AS e WHERE e.grantee <> ${owner}`;
}

/** An object's ACL; NULL means the kind's default (for functions: EXECUTE to PUBLIC), which is what it has. */
const aclOf = (acl: string, kind: string, owner: string) => `coalesce(${acl}, acldefault('${kind}', ${owner}))`;

/** A foreign key's action as written in SQL. */
const ACTION = (column: string) =>
  `CASE ${column} WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT' WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END`;

/** A JSON array of `select`'s rows, `[]` when none. */
const jsonRows = (select: string, order: string) =>
  `coalesce((SELECT json_agg(x ORDER BY ${order}) FROM (${select}) AS x), '[]'::json)`;

const GRANT_ORDER = `x.grantee COLLATE "C" NULLS FIRST, x."column" COLLATE "C" NULLS FIRST, x.privilege COLLATE "C"`;

async function rows<R>(db: Queryable, text: string, values: unknown[] = []): Promise<R[]> {
  return (await db.query<R>(text, values)).rows;
}

/** JSON columns come back parsed on both backends; this accepts either form. */
function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

async function readExtensions(db: Queryable): Promise<string[]> {
  return (await rows<{ name: string }>(db,
    `SELECT extname::text AS name FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname`)).map((r) => r.name);
}

async function readSchemas(db: Queryable): Promise<SchemaInfo[]> {
  const found = await rows<{ name: string; comment: string | null; grants: unknown }>(db, `
    SELECT n.nspname::text AS name, obj_description(n.oid, 'pg_namespace') AS comment,
           ${jsonRows(grantsOf(aclOf('n.nspacl', 'n', 'n.nspowner'), 'n.nspowner'), GRANT_ORDER)} AS grants
    FROM pg_namespace AS n WHERE ${PROJECT_SCHEMA} ORDER BY n.nspname`);
  return found.map((r) => ({ ...r, grants: json<Grant[]>(r.grants) }));
}

async function readRelations(db: Queryable): Promise<RelationInfo[]> {
  const found = await rows<Omit<RelationInfo, 'columns' | 'constraints' | 'indexes' | 'policies' | 'triggers' | 'referencedBy' | 'grants' | 'partitions'> & Record<string, unknown>>(db, `
    SELECT n.nspname::text AS schema, c.relname::text AS name, c.relkind::text AS kind, c.oid::regclass::text AS qualified,
      obj_description(c.oid, 'pg_class') AS comment,
      CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END AS "partitionKey",
      CASE WHEN c.relkind IN ('v', 'm') THEN pg_get_viewdef(c.oid, true) END AS "viewDefinition",
      to_json(c.reloptions) AS options,
      c.relrowsecurity AS "rowSecurity", c.relforcerowsecurity AS "forceRowSecurity",
      ${jsonRows(`
        SELECT p.oid::regclass::text AS name, pg_get_expr(p.relpartbound, p.oid) AS bound
        FROM pg_inherits AS i JOIN pg_class AS p ON p.oid = i.inhrelid
        WHERE i.inhparent = c.oid AND p.relname !~ ${DATED_PARTITION}`, 'x.name COLLATE "C"')} AS partitions,
      ${jsonRows(`
        SELECT a.attname::text AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
          pg_get_expr(d.adbin, d.adrelid) AS default, a.attgenerated::text AS generated, a.attidentity::text AS identity,
          CASE WHEN a.attcollation <> t.typcollation THEN (SELECT quote_ident(collname) FROM pg_collation WHERE oid = a.attcollation) END AS collation,
          col_description(c.oid, a.attnum) AS comment, a.attnum AS position
        FROM pg_attribute AS a JOIN pg_type AS t ON t.oid = a.atttypid
        LEFT JOIN pg_attrdef AS d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped`, 'x.position')} AS columns,
      ${jsonRows(`
        SELECT k.conname::text AS name, pg_get_constraintdef(k.oid) AS definition, obj_description(k.oid, 'pg_constraint') AS comment
        FROM pg_constraint AS k WHERE k.conrelid = c.oid AND k.contype IN ('c', 'f', 'p', 'u', 'x')
          -- A foreign key to a partitioned table has a copy per partition (named by the date the partition was made).
          AND k.conparentid = 0`, 'x.name COLLATE "C"')} AS constraints,
      ${jsonRows(`
        SELECT k.conrelid::regclass::text AS "table", k.conname::text AS name,
          ${ACTION('k.confdeltype')} AS "onDelete", ${ACTION('k.confupdtype')} AS "onUpdate"
        FROM pg_constraint AS k WHERE k.confrelid = c.oid AND k.contype = 'f' AND k.conparentid = 0`,
        'x."table" COLLATE "C", x.name COLLATE "C"')} AS "referencedBy",
      ${jsonRows(`
        SELECT ic.relname::text AS name, pg_get_indexdef(ix.indexrelid) AS definition, obj_description(ix.indexrelid, 'pg_class') AS comment
        FROM pg_index AS ix JOIN pg_class AS ic ON ic.oid = ix.indexrelid
        WHERE ix.indrelid = c.oid AND NOT EXISTS (SELECT 1 FROM pg_constraint AS k WHERE k.conindid = ix.indexrelid AND k.conrelid = c.oid AND k.contype IN ('p', 'u', 'x'))`,
        'x.name COLLATE "C"')} AS indexes,
      ${jsonRows(`
        SELECT p.polname::text AS name, p.polpermissive AS permissive,
          CASE p.polcmd WHEN 'r' THEN 'SELECT' WHEN 'a' THEN 'INSERT' WHEN 'w' THEN 'UPDATE' WHEN 'd' THEN 'DELETE' ELSE 'ALL' END AS command,
          (SELECT json_agg(CASE WHEN r = 0 THEN 'PUBLIC' WHEN pg_get_userbyid(r) = current_user THEN NULL ELSE pg_get_userbyid(r)::text END
                           ORDER BY pg_get_userbyid(r)) FROM unnest(p.polroles) AS r) AS roles,
          pg_get_expr(p.polqual, p.polrelid) AS using, pg_get_expr(p.polwithcheck, p.polrelid) AS check,
          obj_description(p.oid, 'pg_policy') AS comment
        FROM pg_policy AS p WHERE p.polrelid = c.oid`, 'x.name COLLATE "C"')} AS policies,
      ${jsonRows(`
        SELECT t.tgname::text AS name, pg_get_triggerdef(t.oid) AS definition,
          CASE WHEN t.tgtype & 2 <> 0 THEN 'BEFORE' WHEN t.tgtype & 64 <> 0 THEN 'INSTEAD OF' ELSE 'AFTER' END AS timing,
          t.tgtype & 1 <> 0 AS row,
          (SELECT json_agg(e ORDER BY o) FROM (VALUES (1, 'INSERT', 4), (2, 'UPDATE', 16), (3, 'DELETE', 8), (4, 'TRUNCATE', 32)) AS v(o, e, bit)
           WHERE t.tgtype & v.bit <> 0) AS events,
          coalesce((SELECT json_agg(a.attname::text ORDER BY k.n) FROM unnest(t.tgattr) WITH ORDINALITY AS k(attnum, n)
                    JOIN pg_attribute AS a ON a.attrelid = t.tgrelid AND a.attnum = k.attnum), '[]'::json) AS "updateColumns",
          substring(pg_get_triggerdef(t.oid) FROM ' WHEN \\((.*)\\) EXECUTE ') AS when,
          CASE WHEN t.tgconstraint = 0 THEN NULL ELSE t.tginitdeferred END AS deferred,
          t.tgenabled::text AS enabled, t.tgfoid::regproc::text AS function,
          substring(pg_get_triggerdef(t.oid) FROM ' EXECUTE FUNCTION [^(]+\\((.*)\\)$') AS arguments,
          obj_description(t.oid, 'pg_trigger') AS comment
        FROM pg_trigger AS t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal`, 'x.name COLLATE "C"')} AS triggers,
      ${jsonRows(`${grantsOf(aclOf('c.relacl', 'r', 'c.relowner'), 'c.relowner')}
        UNION ALL
        SELECT g.* FROM pg_attribute AS a, LATERAL (${grantsOf('a.attacl', 'c.relowner', 'a.attname::text')}) AS g
        WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attacl IS NOT NULL`, GRANT_ORDER)} AS grants
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE ${PROJECT_SCHEMA} AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition AND ${NOT_FROM_EXTENSION('pg_class', 'c.oid')}
    ORDER BY n.nspname, c.relname`);
  return found.map((r) => ({
    ...r,
    partitions: json(r.partitions),
    options: json(r.options),
    columns: json(r.columns),
    constraints: json(r.constraints),
    indexes: json(r.indexes),
    policies: json(r.policies),
    triggers: json(r.triggers),
    referencedBy: json(r.referencedBy),
    grants: json(r.grants),
  }) as RelationInfo);
}

async function readSequences(db: Queryable): Promise<SequenceInfo[]> {
  const found = await rows<Omit<SequenceInfo, 'grants'> & { grants: unknown }>(db, `
    SELECT n.nspname::text AS schema, c.oid::regclass::text AS qualified,
      format('AS %s START WITH %s INCREMENT BY %s MINVALUE %s MAXVALUE %s CACHE %s%s', format_type(s.seqtypid, NULL),
             s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, CASE WHEN s.seqcycle THEN ' CYCLE' ELSE '' END) AS definition,
      (SELECT format('%s.%I', d.refobjid::regclass, a.attname) FROM pg_depend AS d
         JOIN pg_attribute AS a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
       WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'a') AS "ownedBy",
      obj_description(c.oid, 'pg_class') AS comment,
      ${jsonRows(grantsOf(aclOf('c.relacl', 's', 'c.relowner'), 'c.relowner'), GRANT_ORDER)} AS grants
    FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace JOIN pg_sequence AS s ON s.seqrelid = c.oid
    WHERE ${PROJECT_SCHEMA} AND c.relkind = 'S'
      -- An identity column's sequence is part of its column.
      AND NOT EXISTS (SELECT 1 FROM pg_depend AS d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'i')
    ORDER BY n.nspname, c.relname`);
  return found.map((r) => ({ ...r, grants: json<Grant[]>(r.grants) }));
}

async function readFunctions(db: Queryable): Promise<FunctionInfo[]> {
  const found = await rows<Omit<FunctionInfo, 'grants'> & { grants: unknown }>(db, `
    SELECT n.nspname::text AS schema, p.proname::text AS name, p.oid::regprocedure::text AS signature,
      CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END AS kind, p.pronargs::integer AS inputs,
      pg_get_functiondef(p.oid) AS definition, obj_description(p.oid, 'pg_proc') AS comment,
      ${jsonRows(grantsOf(aclOf('p.proacl', 'f', 'p.proowner'), 'p.proowner'), GRANT_ORDER)} AS grants
    FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE ${PROJECT_SCHEMA} AND ${NOT_FROM_EXTENSION('pg_proc', 'p.oid')}
    ORDER BY n.nspname, p.proname, pg_get_function_identity_arguments(p.oid) COLLATE "C"`);
  return found.map((r) => ({ ...r, grants: json<Grant[]>(r.grants) }));
}

/** The roles the dumped objects grant to or name in policies, with their memberships among themselves and the owner. */
async function readRoles(db: Queryable, named: Set<string>): Promise<RoleInfo[]> {
  const found = await rows<Omit<RoleInfo, 'members'> & { members: unknown }>(db, `
    SELECT r.rolname::text AS name, r.rolcanlogin AS login, r.rolinherit AS inherit, r.rolbypassrls AS "bypassRls",
      coalesce((SELECT json_agg(CASE WHEN m.rolname = current_user THEN NULL ELSE m.rolname::text END ORDER BY m.rolname)
                FROM pg_auth_members AS am JOIN pg_roles AS m ON m.oid = am.member
                WHERE am.roleid = r.oid AND (m.rolname = ANY ($1::text[]) OR m.rolname = current_user)), '[]'::json) AS members
    FROM pg_roles AS r WHERE r.rolname = ANY ($1::text[]) ORDER BY r.rolname`, [[...named]]);
  return found.map((r) => ({ ...r, members: json<(string | null)[]>(r.members) }));
}

/**
 * Objects the dump does not render yet. A migration that adds one makes the dump fail instead of leaving it out
 * silently: teach scripts/schema-dump/ to render it.
 */
async function unsupported(db: Queryable): Promise<string[]> {
  return (await rows<{ what: string }>(db, `
    SELECT format('type %s', t.oid::regtype) AS what FROM pg_type AS t JOIN pg_namespace AS n ON n.oid = t.typnamespace
    WHERE ${PROJECT_SCHEMA} AND (t.typtype IN ('e', 'd', 'r', 'm')
      OR t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
    UNION ALL
    SELECT format('relation %s (relkind %s)', c.oid::regclass, c.relkind) FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE ${PROJECT_SCHEMA} AND c.relkind IN ('f', 'c')
    UNION ALL
    SELECT format('rule %s on %s', r.rulename, r.ev_class::regclass) FROM pg_rewrite AS r JOIN pg_class AS c ON c.oid = r.ev_class
      JOIN pg_namespace AS n ON n.oid = c.relnamespace WHERE ${PROJECT_SCHEMA} AND r.rulename <> '_RETURN'
    UNION ALL
    SELECT format('aggregate or window function %s', p.oid::regprocedure) FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE ${PROJECT_SCHEMA} AND p.prokind IN ('a', 'w')
    UNION ALL
    SELECT format('statistics %s', s.stxname) FROM pg_statistic_ext AS s JOIN pg_namespace AS n ON n.oid = s.stxnamespace WHERE ${PROJECT_SCHEMA}
    UNION ALL
    SELECT format('event trigger %s', evtname) FROM pg_event_trigger
    UNION ALL
    SELECT format('default privileges of %s', pg_get_userbyid(defaclrole)) FROM pg_default_acl`)).map((r) => r.what);
}

/** Everything the dump shows, read in one transaction with an empty search_path (so every name is qualified). */
export async function readCatalog(db: Database): Promise<Catalog> {
  return db.transaction(async (tx) => {
    await tx.query(`SELECT set_config('search_path', '', true)`);
    const left = await unsupported(tx);
    if (left.length > 0) throw new Error(`the schema dump cannot render these yet (scripts/schema-dump/catalog.ts): ${left.join('; ')}`);
    // One after another: a transaction is one connection.
    const keywords = new Set((await rows<{ word: string }>(tx, `SELECT word FROM pg_get_keywords() WHERE catcode <> 'U'`)).map((r) => r.word));
    const extensions = await readExtensions(tx);
    const schemas = await readSchemas(tx);
    const relations = await readRelations(tx);
    const sequences = await readSequences(tx);
    const functions = await readFunctions(tx);
    const named = new Set<string>();
    const note = (grantee: string | null) => { if (grantee !== null && grantee !== 'PUBLIC') named.add(grantee); };
    for (const { grants } of [...schemas, ...relations, ...sequences, ...functions]) grants.forEach((g) => note(g.grantee));
    for (const relation of relations) relation.policies.forEach((p) => p.roles.forEach(note));
    const roles = await readRoles(tx, named);
    return { keywords, extensions, roles, schemas, relations, sequences, functions };
  });
}
