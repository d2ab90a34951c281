/**
 * PgBouncer (Debian's binary) in transaction pooling mode in front of a test's PostgreSQL server, started and stopped
 * by the test itself on a free port. Clients authenticate with any user name (`auth_type = any`): PgBouncer connects
 * to the server as the user of the target URL, whose server trusts local connections in these tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const PGBOUNCER_BINARY = process.env.STAYKIT_PGBOUNCER ?? '/usr/sbin/pgbouncer';

export function pgbouncerAvailable(): boolean {
  return existsSync(PGBOUNCER_BINARY);
}

export interface PgBouncer {
  /** `target`'s URL with PgBouncer's host and port. */
  url: string;
  /** PgBouncer's log (its standard error). */
  output(): string;
  stop(): Promise<void>;
}

let shared: Promise<PgBouncer> | undefined;

/**
 * One PgBouncer per test process in front of the server of `target`, stopped when the process exits: what
 * `STAYKIT_TEST_PGBOUNCER=1` puts between every PostgreSQL test database and its tests (test/support/databases.ts).
 */
export function sharedPgBouncer(target: string): Promise<PgBouncer> {
  shared ??= startPgBouncer(target, 20);
  return shared;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts PgBouncer in front of the server of `target` (a postgres:// URL); pool of `poolSize` server connections. */
export async function startPgBouncer(target: string, poolSize = 20): Promise<PgBouncer> {
  const server = new URL(target);
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'staykit-pgbouncer-'));
  const user = decodeURIComponent(server.username || 'postgres');
  await writeFile(join(dir, 'pgbouncer.ini'), [
    '[databases]',
    `* = host=${server.hostname} port=${server.port || '5432'} user=${user}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 500',
    `default_pool_size = ${poolSize}`,
    'server_lifetime = 3600',
    '',
  ].join('\n'));
  // PgBouncer refuses to run as root: it then drops to the postgres user, which must read the folder.
  await chmod(dir, 0o755);
  const asRoot = process.getuid?.() === 0 ? ['-u', 'postgres'] : [];
  const child: ChildProcess = spawn(PGBOUNCER_BINARY, [...asRoot, join(dir, 'pgbouncer.ini')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Also when the test process ends without stopping it (a shared PgBouncer): it must not keep the process alive.
  const orphaned = () => child.kill('SIGINT');
  process.once('exit', orphaned);
  child.unref();
  for (const stream of [child.stdout, child.stderr] as unknown as { unref?: () => void }[]) stream.unref?.();
  for (let attempt = 0; !(await answers(port)); attempt += 1) {
    if (child.exitCode !== null || attempt > 100) {
      child.kill('SIGKILL');
      throw new Error(`PgBouncer did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    output: () => output,
    async stop() {
      process.off('exit', orphaned);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
