/**
 * The roles the migrations made, with their memberships, as SQL that creates only what is missing: pg_dump writes
 * one database, while roles belong to the server, and the dump's grants and policies name them.
 */
interface Queryable {
  query<Row>(sql: string, values?: unknown[]): Promise<{ rows: Row[] }>;
}

export async function rolesPreamble(db: Queryable): Promise<string> {
  const { rows: roles } = await db.query<{ name: string }>(`SELECT rolname AS name FROM pg_roles WHERE rolname LIKE 'staykit\\_%' AND NOT rolcanlogin ORDER BY 1`);
  const { rows: memberships } = await db.query<{ role: string; member: string }>(
    `SELECT r.rolname AS role, m.rolname AS member FROM pg_auth_members a
       JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member
      WHERE r.rolname LIKE 'staykit\\_%' AND m.rolname LIKE 'staykit\\_%' ORDER BY 1, 2`);
  const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;
  const ident = (text: string) => `"${text.replace(/"/g, '""')}"`;
  return [
    '-- Roles of the migrations (a server-wide object pg_dump leaves out), created where missing.',
    ...roles.map(({ name }) => `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${literal(name)}) THEN CREATE ROLE ${ident(name)} NOLOGIN; END IF; END $$;`),
    ...memberships.map(({ role, member }) => `GRANT ${ident(role)} TO ${ident(member)};`),
  ].join('\n');
}
