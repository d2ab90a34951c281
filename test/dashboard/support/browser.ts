/**
 * Debian's chromium through playwright-core, as the reference page test runs it. Missing → the browser tests are
 * skipped with a message, unless STAYKIT_TEST_REQUIRE_BROWSER=1 (CI), which makes it an error.
 */
import { after, before } from 'node:test';
import { browserMissing as missingBrowser } from '../../support/browser-required.js';
import { ensureDashboardBuilt } from './built-app.js';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.STAYKIT_CHROMIUM ?? '/usr/bin/chromium';
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export const browserMissing = missingBrowser(CHROMIUM, 'dashboard browser tests');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

const axeSource = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the page as it is now (WCAG 2 A/AA rules). */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.slice(0, 3).map((node) => ({ target: node.target })) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/**
 * The one chromium of a dashboard test file: launched before its tests (the dashboard built first when its build
 * is missing or stale), closed after them. Call at the file's top level; the getter gives the running browser.
 */
export function fileBrowser(): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    if (browserMissing) return;
    ensureDashboardBuilt();
    browser = await launchBrowser();
  });
  after(() => browser?.close());
  return () => browser!;
}
