/**
 * The dashboard's Today page in a real browser (Debian's chromium through playwright-core), on both backends, on the
 * seeded demo organization plus two units of this test with stays set relative to today in the organization's time
 * zone (the server's and the browser's clock are the same real clock): the demo owner lands on Today after login; an
 * arrival today shows with its guest, number of guests (the sum group "Guests" not counted again), arrival time and
 * an unpaid marker; a booking request shows and **Accept** confirms it (checked through the API); an overdue payment,
 * a task due today and an iCal calendar with a problem show; this month's revenue and last year's same month are the
 * sums /v1/report_unit_months answers. A cleaner (the role's default scopes only) sees the arrivals by unit and their
 * task due today without any guest data, and no request the page makes is refused. axe finds no serious or critical
 * violation. Screenshots at desktop and phone width go to a temporary folder named in the output;
 * STAYKIT_UPDATE_SCREENSHOTS=1 also writes docs/dashboard/today.png (PGlite run).
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { addDays } from '../../web/dashboard/src/common/dates.js';
import { bearer, createKey } from '../support/app.js';
import { forEachBackend } from '../support/databases.js';
import { organizationToday } from '../support/organization-today.js';
import { fixtures } from '../support/fixtures.js';
import { createUser, type TestUser } from '../users/support.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'dashboard');
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-today-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/** The amount shown ("€1,234.50", "1.234,50 €") in minor units. */
const minorShown = (text: string) => Number(text.replace(/\D/g, ''));

forEachBackend('the Today page', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let today: string;
  let arrival: { bookingId: string; reference: string };
  let request: { bookingId: string; reference: string };
  let overdue: { bookingId: string; paymentId: string };
  let reportsKey: string;
  let cleaner: TestUser;

  before(async () => {
    if (browserMissing) return;
    const organizationId = session.seeded.organization_id;
    const data = fixtures(ctx.db, organizationId);
    today = await organizationToday(ctx.db, organizationId);
    const { rows: groupRows } = await ctx.db.query<{ id: string; name: string }>(
      `SELECT id, name->>'default' AS name FROM api.capacity_groups WHERE organization_id = $1`, [organizationId]);
    const group = Object.fromEntries(groupRows.map((row) => [row.name, row.id]));
    // As the booking flow stores it: every group, the sum group "Guests" repeating adults and children.
    const occupancy = { [group.Adults!]: 2, [group.Children!]: 1, [group.Guests!]: 3 };
    // Units of this test's own, so the demo's stays never overlap its stays.
    const loft = await data.product({ name: { default: 'Lighthouse Loft' } });
    const barn = await data.product({ name: { default: 'Request Barn' }, interaction: 'request' });

    const stay = async (productId: string, start: string, end: string, status: string, guest: { first_name: string; last_name: string }) => {
      const booking = await data.row<{ id: string; reference: string }>('bookings', { occupancy, method: status === 'TENTATIVE' ? 'request' : 'book' });
      await data.event(productId, { booking_id: booking.id, start_date: start, end_date: end, status });
      await data.guest(booking.id, { ...guest, email: `${guest.first_name.toLowerCase()}@example.com` });
      return { bookingId: booking.id, reference: booking.reference };
    };
    arrival = await stay(loft, today, addDays(today, 3), 'CONFIRMED', { first_name: 'Ada', last_name: 'Arrival' });
    await data.row('booking_details', { booking_id: arrival.bookingId, name: { default: 'Arrival time' }, value: '16:30' });
    await data.row('payments', { booking_id: arrival.bookingId, amount: 42000, status: 'pending', due_at: new Date(Date.now() + 86_400_000).toISOString() });
    request = await stay(barn, addDays(today, 5), addDays(today, 8), 'TENTATIVE', { first_name: 'Rita', last_name: 'Request' });
    const late = await stay(loft, addDays(today, 10), addDays(today, 12), 'CONFIRMED', { first_name: 'Otto', last_name: 'Overdue' });
    const payment = await data.row('payments', { booking_id: late.bookingId, amount: 31337, status: 'pending', due_at: new Date(Date.now() - 86_400_000).toISOString() });
    overdue = { bookingId: late.bookingId, paymentId: payment.id };
    // A stay in the same month last year, so the comparison has last year's rent to show.
    const lastYear = `${Number(today.slice(0, 4)) - 1}${today.slice(4, 8)}01`;
    const pastStay = await stay(loft, lastYear, addDays(lastYear, 2), 'CONFIRMED', { first_name: 'Lea', last_name: 'Lastyear' });
    await data.row('line_items', { booking_id: pastStay.bookingId, item_type: 'rent', fee_type: 'fee', amount: 25000, quantity: 2 });
    await data.externalCalendar(barn, { name: 'Channel feed', error: 'The feed answered 404 Not Found' });

    reportsKey = await createKey(ctx.db, organizationId, ['reports:read']);
    cleaner = await createUser(ctx.db, organizationId, 'cleaner@staykit.test', { role: 'cleaner' });
    // Due now: today in the organization's time zone, whatever the time of day.
    const { rows: [event] } = await ctx.db.query<{ id: string }>('SELECT id FROM api.calendar_events WHERE booking_id = $1', [arrival.bookingId]);
    await data.row('calendar_event_tasks', { calendar_event_id: event!.id, label: 'Welcome basket', due_at: new Date().toISOString(), assignee_id: cleaner.memberId });
  });

  const api = async <T>(path: string, key = session.seeded.api_key): Promise<T> => {
    const response = await fetch(`${session.base}${path}`, { headers: bearer(key) });
    assert.equal(response.status, 200, path);
    return await response.json() as T;
  };

  /** The rent of a month of every unit as /v1/report_unit_months answers it, in minor units (the demo is all in EUR). */
  const revenueOf = async (month: string) =>
    (await api<{ revenue: number }[]>(`/v1/report_unit_months?select=revenue&month=eq.${month}`, reportsKey)).reduce((sum, row) => sum + row.revenue, 0);

  const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });

  it('lands the owner on Today: the arrival with guest, guests, arrival time and unpaid; the overdue payment; the sync problem', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/today');

    const arrivals = section(page, 'Arrivals');
    const line = arrivals.locator(`[data-booking-id="${arrival.bookingId}"]`);
    await line.getByRole('link', { name: 'Ada Arrival' }).waitFor();
    // innerText as shown: the badge's text in capitals.
    const text = (await line.innerText()).toLowerCase();
    // 3 guests, not 6: the sum group is not counted again.
    for (const part of ['lighthouse loft', '3 guests', 'arrives 16:30', 'unpaid']) assert.ok(text.includes(part), `"${part}" in "${text}"`);
    assert.equal(await line.locator('[data-payment="unpaid"]').count(), 1);

    const payment = section(page, 'Payments overdue').locator(`[data-payment-id="${overdue.paymentId}"]`);
    await payment.getByRole('link', { name: 'Otto Overdue' }).waitFor();
    assert.ok((await payment.innerText()).includes('313.37'), 'the amount owed');
    await section(page, 'iCal sync problems').getByText('The feed answered 404 Not Found').waitFor();
    await section(page, 'Tasks due today').getByRole('link', { name: 'Welcome basket' }).waitFor();

    // The link of an arrival opens its booking.
    await line.getByRole('link', { name: 'Ada Arrival' }).click();
    await page.getByRole('heading', { name: `Booking ${arrival.reference}` }).waitFor();
    await page.getByRole('link', { name: 'Today', exact: true }).click();
    await section(page, 'Arrivals').getByRole('link', { name: 'Ada Arrival' }).waitFor();

    // The tasks' link opens the task board (not the calendar), on today, with the task.
    await section(page, 'Tasks due today').getByRole('link', { name: 'Open the task board' }).click();
    await page.getByRole('heading', { name: 'Tasks', exact: true, level: 2 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/admin/tasks');
    assert.equal(await page.getByLabel('Day', { exact: true }).inputValue(), today);
    await page.getByText('Welcome basket', { exact: true }).first().waitFor();
    await page.getByRole('link', { name: 'Today', exact: true }).click();
    await section(page, 'Tasks due today').getByRole('link', { name: 'Welcome basket' }).waitFor();
  });

  it('this month\'s and last year\'s same month revenue are what /v1/report_unit_months answers', { skip }, async () => {
    const { page } = session;
    const month = `${today.slice(0, 8)}01`;
    const [current, lastYear] = await Promise.all([revenueOf(month), revenueOf(`${Number(month.slice(0, 4)) - 1}${month.slice(4)}`)]);
    assert.ok(lastYear >= 25000, 'last year\'s month holds this test\'s stay');
    const figures = page.getByRole('region', { name: /^This month/ });
    await figures.locator('[data-figure="revenue"]').waitFor();
    assert.equal(minorShown(await figures.locator('[data-figure="revenue"]').innerText()), current);
    assert.equal(minorShown((await figures.locator('[data-figure="revenue-last-year"]').innerText()).replace(/^\d{4}:/, '')), lastYear);
  });

  it('accepts a booking request with one click: the stay is confirmed', { skip }, async () => {
    const { page } = session;
    const requests = section(page, 'Requests waiting for you');
    await requests.getByRole('link', { name: 'Rita Request' }).waitFor();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, `today-${ctx.backend}.png`), fullPage: true });
    if (process.env.STAYKIT_UPDATE_SCREENSHOTS === '1' && ctx.backend === 'pglite') await page.screenshot({ path: join(DOCS, 'today.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENSHOTS, `today-phone-${ctx.backend}.png`), fullPage: true });
    await page.setViewportSize({ width: 1360, height: 900 });

    await requests.getByRole('button', { name: `Accept request ${request.reference}` }).click();
    await requests.getByRole('link', { name: 'Rita Request' }).waitFor({ state: 'detached' });
    const events = await api<{ status: string }[]>(`/v1/calendar_events?select=status&booking_id=eq.${request.bookingId}`);
    assert.deepEqual(events.map((event) => event.status), ['CONFIRMED']);
  });

  it('a cleaner sees the arrivals by unit, no guest data, and no request is refused', { skip }, async () => {
    const phone = await browser().newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await phone.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => session.pageErrors.push(error.message));
    const answers: { url: string; status: number; body: string }[] = [];
    const collect = async (response: Response) => {
      if (!new URL(response.url()).pathname.startsWith('/v1/')) return;
      answers.push({ url: response.url(), status: response.status(), body: await response.text().catch(() => '') });
    };
    page.on('response', (response) => void collect(response));
    try {
      await session.logIn(cleaner, page);
      // Without bookings the landing page is their tasks; Today is in the navigation.
      await page.getByRole('heading', { name: 'My tasks' }).waitFor();
      await page.goto(`${session.base}/admin/today`);
      const arrivals = section(page, 'Arrivals');
      await arrivals.getByText('Lighthouse Loft').first().waitFor();
      // Their task, without a link to the booking they may not read.
      await section(page, 'Tasks due today').getByText('Welcome basket').waitFor();
      assert.equal(await section(page, 'Tasks due today').getByRole('link', { name: 'Welcome basket' }).count(), 0);
      // No task board for them (it assigns members): the section leads to their own list.
      assert.equal(await section(page, 'Tasks due today').getByRole('link', { name: 'Open my tasks' }).getAttribute('href'), '/admin/my-tasks');
      await page.screenshot({ path: join(SCREENSHOTS, `today-cleaner-phone-${ctx.backend}.png`), fullPage: true });
      for (const hidden of ['Requests waiting for you', 'Payments overdue', 'iCal sync problems']) {
        assert.equal(await section(page, hidden).count(), 0, `no ${hidden}`);
      }
      assert.equal(await page.getByRole('region', { name: /^This month/ }).count(), 0, 'no report figures');
      assert.equal(await page.getByText('Ada Arrival').count(), 0, 'no guest name');
      assert.equal(await page.getByText('could not be loaded').count(), 0, 'no error shown');
      assert.deepEqual(answers.filter((answer) => answer.status >= 400).map((answer) => `${answer.status} ${answer.url}`), [], 'no request refused');
      const leaks = answers.filter(({ body }) => /@example\.com|Arrival"|"Ada"/.test(body)).map(({ url }) => url);
      assert.deepEqual(leaks, [], 'no answer holds guest data');
      assert.ok(answers.some(({ url }) => url.includes('/v1/calendar_events')));
    } finally {
      await phone.close();
    }
  });
});
