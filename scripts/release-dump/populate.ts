/**
 * A release's database as its users have it, made only through that release's public faces — its `staykit`
 * command and its HTTP API — so the same steps work for every release: the demo organization, a read-only key, a
 * widget with a publishable key, and a webhook.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReleaseRecord } from './record.js';

type Made = Omit<ReleaseRecord, 'version' | 'commit' | 'lastMigration' | 'migrations' | 'madeAt' | 'tables'>;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

export async function populate(tree: string, databaseUrl: string): Promise<Made> {
  const dataDir = mkdtempSync(join(tmpdir(), 'staykit-release-data-'));
  const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, STAYKIT_LOG_LEVEL: 'warn' };
  const cli = (args: string[]) => {
    const out = execFileSync(process.execPath, [join(tree, 'bin/staykit.js'), ...args], { cwd: tree, env, encoding: 'utf8' });
    return JSON.parse(out.slice(out.indexOf('{'))) as Record<string, unknown>;
  };
  try {
    const seeded = cli(['seed', '--json']) as { organization_id: string; api_key: string; dashboard_login: { email: string; password: string } | null };
    if (!seeded.dashboard_login) throw new Error('the seed set no dashboard password');
    const reader = cli(['key', 'create', '--org', seeded.organization_id, '--name', 'release reader', '--scopes', 'read']) as { api_key: string };

    const port = await freePort();
    const server = spawn(process.execPath, [join(tree, 'bin/staykit.js'), 'serve'], { cwd: tree, env: { ...env, PORT: String(port) }, stdio: 'inherit' });
    const exited = new Promise((resolve) => server.once('exit', resolve));
    try {
      const base = `http://127.0.0.1:${port}`;
      const api = async (path: string, body: unknown) => {
        const response = await fetch(`${base}${path}`, {
          method: 'POST', body: JSON.stringify(body),
          headers: { authorization: `Bearer ${seeded.api_key}`, 'content-type': 'application/json', prefer: 'return=representation' },
        });
        if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`);
        return ((await response.json()) as Array<{ id: string }>)[0]!;
      };
      for (let tries = 0; ; tries += 1) {
        const ready = await fetch(`${base}/v1/products?select=id&limit=1`, { headers: { authorization: `Bearer ${seeded.api_key}` } }).catch(() => null);
        if (ready?.ok) break;
        if (tries > 600) throw new Error('the release\'s server did not answer within a minute');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const widget = await api('/v1/widgets', { name: 'Release widget', allowed_origins: ['https://www.example.com'] });
      const webhook = await api('/v1/webhooks', { endpoint: 'https://hooks.example.com/staykit', events: ['*'], description: 'release hook' });
      const publishable = cli(['key', 'create', '--publishable', '--widget', widget.id, '--name', 'release page']) as { publishable_key?: string; key?: string };
      const publishableKey = publishable.publishable_key ?? publishable.key;
      if (!publishableKey) throw new Error(`no publishable key in ${JSON.stringify(publishable)}`);
      return {
        organizationId: seeded.organization_id, apiKey: seeded.api_key, readKey: reader.api_key, publishableKey,
        widgetId: widget.id, webhookId: webhook.id, dashboardLogin: seeded.dashboard_login,
      };
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
