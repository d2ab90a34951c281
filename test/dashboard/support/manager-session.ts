/**
 * What the dashboard's unit tests share: the demo organization, a manager allowed to write everything, the app
 * listening on a port, a browser page (CSP bypassed for axe) that collects script errors, the demo API key to check
 * results with, and the manager's login. Call inside a `forEachBackend` suite: it registers its own hooks.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seedDemoOrganization } from '../../../src/seed/demo-organization.js';
import { startApp } from '../../support/app.js';
import type { BackendContext } from '../../support/databases.js';
import { createUser, type TestUser } from '../../users/support.js';
import { browserMissing } from './browser.js';

export interface ManagerSession {
  /** The app's address, `http://127.0.0.1:<port>`. */
  base: string;
  page: Page;
  manager: TestUser;
  /** Script errors of every page; the suite fails at its end unless empty. */
  pageErrors: string[];
  /** A request to the API with the demo organization's secret key (read, write), answering its JSON. */
  api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Logs the manager in on the dashboard's first page; done when the navigation shows. */
  logIn(): Promise<void>;
}

export function managerSession(ctx: BackendContext, browser: () => Browser): ManagerSession {
  let app: FastifyInstance;
  let context: BrowserContext;
  let apiKey: string;
  const session = { pageErrors: [] as string[] } as ManagerSession;

  before(async () => {
    if (browserMissing) return;
    const seeded = await seedDemoOrganization(ctx.db);
    apiKey = seeded.api_key;
    session.manager = await createUser(ctx.db, seeded.organization_id, 'manager@staykit.test', { role: 'manager', permissions: [{ resource: '*', access: 'write' }] });
    app = await startApp(ctx.db);
    session.base = await app.listen({ port: 0, host: '127.0.0.1' });
    // The page's CSP allows no inline script; axe is injected as one, so the test context bypasses CSP.
    context = await browser().newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    session.page = await context.newPage();
    session.page.setDefaultTimeout(15_000);
    session.page.on('pageerror', (error) => session.pageErrors.push(error.message));
  });

  after(async () => {
    assert.deepEqual(session.pageErrors, [], 'no script error on any page');
    await context?.close();
    await app?.close();
  });

  session.api = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${session.base}${path}`, {
      method, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  session.logIn = async () => {
    const { page, manager } = session;
    await page.goto(`${session.base}/admin/`);
    await page.getByLabel('E-mail').fill(manager.email);
    await page.getByLabel(/^Password/).fill(manager.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Units and prices', exact: true }).waitFor();
  };
  return session;
}
