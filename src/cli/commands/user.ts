/**
 * `staykit user create --org ID --email E --role ROLE [--name N] [--password-stdin] [--url BASE]` and
 * `staykit user reset-password --email E [--password-stdin] [--url BASE]`: dashboard users from the command line.
 * Without `--password-stdin` they print a one-time link to set the password (`<BASE>/admin/set-password?token=…`,
 * BASE defaulting to the configured host and port); with it, the password is read from stdin (for scripts) and
 * never appears in the process list or the shell history.
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { hashPassword } from '../../users/password.js';
import { passwordProblem } from '../../users/password-rules.js';
import { revokeUserSessions } from '../../auth/session-store.js';
import { EMAIL } from '../../common/patterns.js';
import type { DemoLogin } from '../../users/demo-user.js';
import { createPasswordToken, passwordLink } from '../../users/password-links.js';
import { addMembership, ensureUser, findUserByEmail, MEMBER_ROLES, setPasswordHash, type MemberRole } from '../../users/user-store.js';
import { withDatabase } from '../support/database.js';
import { UsageError } from '../support/usage-error.js';
import { organizationArgument } from './key.js';

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

const FLAGS = {
  org: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  url: { type: 'string' },
  'password-stdin': { type: 'boolean' },
} as const;

function emailArgument(value: string | undefined): string {
  if (!value) throw new UsageError('--email is required');
  if (!EMAIL.test(value)) throw new UsageError(`--email must be an e-mail address, got "${value}"`);
  return value;
}

function roleArgument(value: string | undefined): MemberRole {
  if (!value) throw new UsageError(`--role is required: ${MEMBER_ROLES.join(', ')}`);
  if (!(MEMBER_ROLES as readonly string[]).includes(value)) throw new UsageError(`--role must be one of ${MEMBER_ROLES.join(', ')}, got "${value}"`);
  return value as MemberRole;
}

/** The server's address as a browser reaches it when it runs on this machine. */
function defaultBaseUrl(config: Config): string {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

async function passwordFromStdin(email: string): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  const problem = await passwordProblem(password, [email]);
  if (problem !== undefined) throw new UsageError(`--password-stdin: ${problem}`);
  return password;
}

/** Sets the password now (revoking the user's sessions), or makes a one-time link to set it. */
async function passwordOrLink(db: Database, userId: string, password: string | undefined, baseUrl: string) {
  const now = new Date();
  if (password === undefined) return { set_password_url: passwordLink(baseUrl, await createPasswordToken(db, userId, now)) };
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await setPasswordHash(tx, userId, passwordHash, now);
    await revokeUserSessions(tx, userId, now);
  });
  return { password_set: true };
}

export async function userCommand(args: string[]): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({ args, options: FLAGS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  const { values, positionals } = parsed;
  const [sub, ...extra] = positionals;
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" for user ${sub}`);
  const config = loadConfig();
  const baseUrl = values.url ?? defaultBaseUrl(config);
  if (sub === 'create') {
    const organizationId = organizationArgument(values.org);
    const email = emailArgument(values.email);
    const role = roleArgument(values.role);
    const password = values['password-stdin'] ? await passwordFromStdin(email) : undefined;
    return withDatabase(async (db) => {
      const { rows } = await db.query('SELECT 1 FROM api.organizations WHERE id = $1', [organizationId]);
      if (rows.length === 0) throw new UsageError(`no organization ${organizationId}`);
      const user = await ensureUser(db, email);
      const memberId = await addMembership(db, { userId: user.id, email: user.email, organizationId, name: values.name ?? email.split('@')[0]!, role });
      // A user who has a password keeps it: adding them to another organization is no reason to reset it.
      const access = password !== undefined || user.password_hash === null ? await passwordOrLink(db, user.id, password, baseUrl) : {};
      print({ user_id: user.id, email: user.email, organization_id: organizationId, member_id: memberId, role, ...access });
    }, config);
  }
  if (sub === 'reset-password') {
    const email = emailArgument(values.email);
    const password = values['password-stdin'] ? await passwordFromStdin(email) : undefined;
    return withDatabase(async (db) => {
      const user = await findUserByEmail(db, email);
      if (!user) throw new UsageError(`no user ${email}`);
      print({ user_id: user.id, email: user.email, ...(await passwordOrLink(db, user.id, password, baseUrl)) });
    }, config);
  }
  throw new UsageError('usage: staykit user create --org ID --email E --role ROLE [--name N] [--password-stdin] | user reset-password --email E [--password-stdin]');
}

const DEMO_LOGIN_FILE = 'demo-login';

/** Keeps the demo login in the embedded data folder (mode 0600, like the demo key) so later starts print it again. */
export async function saveDemoLogin(dataDir: string, login: DemoLogin): Promise<void> {
  const file = join(dataDir, DEMO_LOGIN_FILE);
  await writeFile(file, `${JSON.stringify(login)}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function savedDemoLogin(dataDir: string): Promise<DemoLogin | undefined> {
  const text = await readFile(join(dataDir, DEMO_LOGIN_FILE), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as DemoLogin);
}

/**
 * What `staykit serve` prints when nobody can log in to the dashboard yet — a data folder from before dashboard
 * users, or a PostgreSQL database set up with `staykit org create`: the command that makes the first login.
 */
export async function firstLoginHint(db: Database): Promise<string> {
  const { rows: [users] } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM staykit_internal.users');
  if ((users?.n ?? 0) > 0) return '';
  const { rows: organizations } = await db.query<{ id: string; name: string }>('SELECT id, name FROM api.organizations ORDER BY created_at LIMIT 6');
  if (organizations.length === 0) return '';
  const org = organizations.length === 1 ? organizations[0]!.id : '<organization id>';
  const which = organizations.length === 1 ? '' : `\n  organizations: ${organizations.slice(0, 5).map((o) => `${o.id} (${o.name})`).join(', ')}${organizations.length > 5 ? ', …' : ''}`;
  return `\nNo dashboard login yet: create one (it prints a link to choose the password) with\n  npx staykit user create --org ${org} --email you@example.com --role owner${which}`;
}
