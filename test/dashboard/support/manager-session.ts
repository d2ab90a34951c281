/**
 * What the dashboard's unit tests share, on top of the demo session (dashboard-session.ts): a manager allowed to
 * write everything, the demo API key to check results with, and the manager's login. Call inside a
 * `forEachBackend` suite: it registers its own hooks.
 */
import { before } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { BackendContext } from '../../support/databases.js';
import { createUser, type TestUser } from '../../users/support.js';
import { browserMissing } from './browser.js';
import { dashboardSession } from './dashboard-session.js';

export interface ManagerSession {
  /** The app's address, `http://127.0.0.1:<port>`. */
  base: string;
  page: Page;
  manager: TestUser;
  /** Script errors of every page; the suite fails at its end unless empty. */
  pageErrors: string[];
  /** A request to the API with the demo organization's secret key (read, write), answering its JSON. */
  api<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Logs the manager in; done when the landing page (Today) shows. */
  logIn(): Promise<void>;
}

export function managerSession(ctx: BackendContext, browser: () => Browser): ManagerSession {
  const demo = dashboardSession(ctx, browser, { context: { viewport: { width: 1280, height: 900 } } });
  const session = {
    get base() { return demo.base; },
    get page() { return demo.page; },
    get pageErrors() { return demo.pageErrors; },
  } as ManagerSession;

  before(async () => {
    if (browserMissing) return;
    session.manager = await createUser(ctx.db, demo.seeded.organization_id, 'manager@staykit.test', { role: 'manager', permissions: [{ resource: '*', access: 'write' }] });
  });

  session.api = async <T>(method: string, path: string, body?: unknown) => {
    const response = await fetch(`${demo.base}${path}`, {
      method, headers: { authorization: `Bearer ${demo.seeded.api_key}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  session.logIn = () => demo.logIn(session.manager);
  return session;
}
