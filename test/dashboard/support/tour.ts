/**
 * A tour of the dashboard: every page of the navigation, and from the lists one booking, one unit and one widget,
 * each opened once its sections have loaded — for the tests that check every page (the English and Dutch tours).
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import sharp from 'sharp';

export interface Visit {
  name: string;
  path: string;
}

/** A page's screenshot file name: `bookings`, `bookings-one` (a booking), `calendar` (/admin/). */
export const fileOf = (path: string) => path.replace(/^\/admin\/?/, '').replace(/\/[0-9a-f-]{36}$/, '-one').replace(/\//g, '-') || 'calendar';

/** A palette PNG of the whole page: a third of the bytes, and the text as sharp (the docs' copies are committed). */
export async function screenshot(page: Page, file: string) {
  await sharp(await page.screenshot({ fullPage: true })).png({ palette: true, quality: 80, compressionLevel: 9 }).toFile(file);
}

/**
 * Opens each page of the navigation, and from the lists one booking, one unit and one widget, in the language the
 * page is read in, and calls `check` on each once its sections have loaded. Returns the pages visited.
 */
export async function tour(page: Page, base: string, check: (visit: Visit) => Promise<void>): Promise<Visit[]> {
  const links = await page.getByRole('navigation').getByRole('link').evaluateAll((anchors) => anchors.map((anchor) => ({
    name: anchor.textContent!.trim(), path: new URL((anchor as HTMLAnchorElement).href).pathname,
  })));
  assert.ok(links.length >= 15, `the owner sees every page (${links.length})`);
  const firstHref = async (pathPattern: RegExp) => {
    for (const anchor of await page.locator('main a[href]').all()) {
      const path = new URL(await anchor.getAttribute('href') ?? '', base).pathname;
      if (pathPattern.test(path)) return path;
    }
    return undefined;
  };
  const visits = [...links];
  for (let index = 0; index < visits.length; index += 1) {
    const visit = visits[index]!;
    await page.goto(`${base}${visit.path}`);
    await page.locator('main h2, main h1').first().waitFor();
    // Sections load on their own: wait until no loader is left.
    await page.waitForFunction(() => document.querySelectorAll('main [role="status"]').length === 0, undefined, { timeout: 30_000 }).catch(() => undefined);
    await page.waitForLoadState('networkidle');
    await check(visit);
    for (const [list, detail] of [['/admin/bookings', /^\/admin\/bookings\/[0-9a-f-]{36}$/], ['/admin/units', /^\/admin\/units\/[0-9a-f-]{36}$/],
      ['/admin/widgets', /^\/admin\/widgets\/[0-9a-f-]{36}$/]] as const) {
      if (visit.path !== list) continue;
      const found = await firstHref(detail);
      if (found) visits.push({ name: `${visit.name}: one`, path: found });
    }
  }
  assert.ok(visits.some((visit) => /^\/admin\/bookings\/./.test(visit.path)), 'a booking was opened');
  assert.ok(visits.some((visit) => /^\/admin\/units\/./.test(visit.path)), 'a unit was opened');
  return visits;
}

