/**
 * The first `npm start` on the embedded default prints the dashboard's address and a demo login next to the API key;
 * the login works (an owner of the demo organization), its generated password meets the password rules, and a
 * restart prints the same login again.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../support/server-process.js';
import { passwordProblem } from '../../src/users/password-rules.js';

const DASHBOARD_LINE = /Dashboard: (http:\/\/\S+)\/admin {2}login (\S+) \/ (\S+)/;

describe('staykit serve on embedded PGlite: the demo login', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-demo-login-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('prints the dashboard URL and a login that works, again after a restart', async () => {
    const env = { DATABASE_URL: '', DATA_DIR: dataDir };
    const first = await startServerProcess(env);
    after(() => first.stop());
    const printed = DASHBOARD_LINE.exec(first.output());
    assert.ok(printed, first.output());
    const [line, base, email, password] = printed;
    assert.equal(base, first.url);
    assert.equal(email, 'demo@staykit.local');
    assert.equal(await passwordProblem(password!, [email!]), undefined, 'the generated password meets the rules a chosen one must');
    assert.match(first.output(), /Demo organization API key: sk_\S+\nDashboard: /);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }),
    });
    assert.equal(login.status, 200);
    const body = (await login.json()) as { organizations: { name: string; role: string }[] };
    assert.deepEqual(body.organizations.map(({ name, role }) => ({ name, role })), [{ name: 'Seaside Stays (demo)', role: 'owner' }]);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const products = await fetch(`${base}/v1/products?select=id`, { headers: { cookie } });
    assert.equal(products.status, 200);
    assert.equal(((await products.json()) as unknown[]).length, 4);
    assert.equal((await stat(join(dataDir, 'demo-login'))).mode & 0o777, 0o600);
    assert.equal(await first.stop(), 0);

    const second = await startServerProcess(env);
    after(() => second.stop());
    assert.ok(second.output().includes(line!.replace(first.url, second.url)), second.output());
    assert.equal(await second.stop(), 0);
  });
});
