/**
 * What every dashboard browser test on the demo organization starts from: the demo seeded, the app listening on a
 * port, a browser page that collects script errors (the suite fails at its end unless there are none), and logging
 * a user in. Call inside a `forEachBackend` suite: it registers its own hooks, before the suite's own.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { AppOptions } from '../../../src/http/app.js';
import { seedDemoOrganization, type SeededOrganization } from '../../../src/seed/demo-organization.js';
import { startApp } from '../../support/app.js';
import type { BackendContext } from '../../support/databases.js';
import { browserMissing } from './browser.js';

export interface DashboardSessionOptions {
  /** The app's options (e.g. a configuration with an SMTP server); made when the suite starts. */
  app?: () => Omit<AppOptions, 'db'>;
  /**
   * The browser context's options. Default: 1360 × 900 and the page's Content-Security-Policy bypassed, as axe is
   * injected as an inline script; a test of what the policy allows passes `bypassCSP: false`.
   */
  context?: BrowserContextOptions;
}

export interface DashboardSession {
  /** The app's address, `http://127.0.0.1:<port>`. */
  base: string;
  seeded: SeededOrganization;
  /** The demo owner's e-mail and password. */
  owner: { email: string; password: string };
  context: BrowserContext;
  page: Page;
  /** Script errors of every page. */
  pageErrors: string[];
  /**
   * Logs `user` in on `target` (default the session's page) at /admin/; done when the landing page's heading shows:
   * Today for a member who may read bookings, else My tasks for one who may read tasks, else the calendar.
   */
  logIn(user: { email: string; password: string }, target?: Page): Promise<void>;
}

export function dashboardSession(ctx: BackendContext, browser: () => Browser, options: DashboardSessionOptions = {}): DashboardSession {
  let app: FastifyInstance;
  const session = { pageErrors: [] as string[] } as DashboardSession;

  before(async () => {
    if (browserMissing) return;
    session.seeded = await seedDemoOrganization(ctx.db);
    session.owner = session.seeded.dashboard_login!;
    app = await startApp(ctx.db, options.app?.());
    session.base = await app.listen({ port: 0, host: '127.0.0.1' });
    session.context = await browser().newContext({ viewport: { width: 1360, height: 900 }, bypassCSP: true, ...options.context });
    session.page = await session.context.newPage();
    session.page.setDefaultTimeout(30_000);
    session.page.on('pageerror', (error) => session.pageErrors.push(error.message));
  });

  after(async () => {
    assert.deepEqual(session.pageErrors, [], 'no script error on any page');
    await session.context?.close();
    await app?.close();
  });

  session.logIn = async (user, target = session.page) => {
    await target.goto(`${session.base}/admin/`);
    await target.getByLabel('E-mail').fill(user.email);
    await target.getByLabel(/^Password/).fill(user.password);
    await target.getByRole('button', { name: 'Log in' }).click();
    await target.getByRole('heading', { name: /^(Today|My tasks|Calendar)$/ }).waitFor();
  };
  return session;
}
