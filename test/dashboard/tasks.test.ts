/**
 * The task pages in a real browser (Debian's chromium through playwright-core), on both backends, on the seeded demo
 * organization plus a unit of this test with a guest's stay today: the demo owner assigns today's cleaning task to a
 * cleaner on the board (/admin/tasks); the cleaner — a member with the role's default permissions only — logs in on a
 * phone (390 × 844), lands on My tasks, sees that task and not another cleaner's, no guest's name or e-mail address,
 * and no request of the page asks for bookings or contacts; they mark it done and the database has it done. A task
 * template with a default member, put on a unit from its page, gives the unit's next booking its task for that
 * member (the engine's rule, migration 0110). To-dos: the owner adds one for the cleaner and one for nobody; the
 * cleaner sees and completes only theirs; the owner deletes the other. axe finds no serious or critical violation. Screenshots go to a
 * temporary folder named in the output.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Request } from 'playwright-core';
import { addDays } from '../../web/dashboard/src/common/dates.js';
import { forEachBackend } from '../support/databases.js';
import { organizationToday } from '../support/organization-today.js';
import { fixtures, type Fixtures } from '../support/fixtures.js';
import { createUser, type TestUser } from '../users/support.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-tasks-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

/**
 * Picks `member` in a multiple choice of members. The field's frame takes the click, as a person's would (it covers
 * the input the label names). The members load on their own after the page: a list opened before they came is empty
 * and does not show, so it is opened again until the member is in it.
 */
async function pickMember(page: Page, field: Locator, member: string) {
  const option = page.getByRole('option', { name: member });
  for (let tries = 0; !(await option.isVisible()); tries += 1) {
    assert.ok(tries < 30, `${member} is offered`);
    if (tries > 0) await page.keyboard.press('Escape');
    await field.click({ force: true });
    await option.waitFor({ timeout: 1_000 }).catch(() => undefined);
  }
  await option.click();
  await page.keyboard.press('Escape');
}

forEachBackend('the task pages', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let data: Fixtures;
  let unitId: string;
  let today: string;
  let cleaner: TestUser;
  let otherCleaner: TestUser;
  let cleaningId: string;

  before(async () => {
    if (browserMissing) return;
    const organizationId = session.seeded.organization_id;
    data = fixtures(ctx.db, organizationId);
    today = await organizationToday(ctx.db, organizationId);
    // Only what a cleaner gets by their role (src/auth/session-permissions.ts): no permission granted.
    cleaner = await createUser(ctx.db, organizationId, 'cleo@staykit.test', { role: 'cleaner' });
    otherCleaner = await createUser(ctx.db, organizationId, 'otto@staykit.test', { role: 'cleaner' });
    unitId = await data.product({ name: { default: 'Harbour Studio' } });
    const booking = await data.row<{ id: string }>('bookings', {});
    const eventId = await data.event(unitId, { booking_id: booking.id, start_date: addDays(today, -2), end_date: today, status: 'CONFIRMED' });
    await data.guest(booking.id, { first_name: 'Gina', last_name: 'Guestly', email: 'gina@example.com' });
    // Due now: today in the organization's time zone, whatever the time of day.
    const due = new Date().toISOString();
    cleaningId = (await data.row<{ id: string }>('calendar_event_tasks', { calendar_event_id: eventId, label: 'Cleaning', due_at: due })).id;
    await data.row('calendar_event_tasks', { calendar_event_id: eventId, label: 'Linen change', due_at: due, assignee_id: otherCleaner.memberId });
  });

  it('the owner assigns today\'s cleaning of a unit to a cleaner on the board', { skip }, async () => {
    const { page } = session;
    await session.logIn(session.owner);
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Tasks', level: 2 }).waitFor();
    const unit = page.getByRole('region', { name: 'Harbour Studio' });
    const line = unit.locator(`[data-task-id="${cleaningId}"]`);
    await line.getByText('Cleaning', { exact: true }).waitFor();
    await unit.getByText('Linen change').waitFor();
    // Only this unit: the demo's tasks of other units leave the board.
    // The board's filter (the to-do form below has a unit field too).
    await page.getByRole('combobox', { name: 'Unit' }).first().click();
    await page.getByRole('option', { name: 'Harbour Studio' }).click();
    assert.deepEqual(await page.locator('section[data-unit-id]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-unit-id'))), [unitId]);

    await line.getByRole('combobox', { name: 'Assigned to Cleaning' }).click();
    await page.getByRole('option', { name: 'cleo (Cleaner)' }).click();
    // The field shows the member once the board has reloaded after the write.
    await page.waitForFunction((id) => document.querySelector<HTMLInputElement>(`[data-task-id="${id}"] input`)?.value === 'cleo (Cleaner)', cleaningId);
    const { rows: [assigned] } = await ctx.db.query<{ assignee_id: string | null }>('SELECT assignee_id FROM api.calendar_event_tasks WHERE id = $1', [cleaningId]);
    assert.equal(assigned!.assignee_id, cleaner.memberId);
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, `board-${ctx.backend}.png`), fullPage: true });
  });

  it('the cleaner on a phone sees only their task, no guest data, asks for no bookings or contacts, and marks it done', { skip }, async () => {
    const phone = await browser().newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await phone.newPage();
    page.setDefaultTimeout(30_000);
    page.on('pageerror', (error) => session.pageErrors.push(error.message));
    const requests: string[] = [];
    const bodies: string[] = [];
    page.on('request', (request: Request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) requests.push(decodeURIComponent(request.url()));
    });
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/v1/')) bodies.push(await response.text().catch(() => ''));
    });
    try {
      await session.logIn(cleaner, page);
      // A member who may read tasks but not bookings lands on their tasks.
      await page.getByRole('heading', { name: 'My tasks' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/admin/my-tasks');
      const card = page.locator(`[data-task-id="${cleaningId}"]`);
      await card.getByText('Harbour Studio').waitFor();
      assert.equal(await page.locator('[data-task-id]').count(), 1, 'their one task only');
      assert.equal(await page.getByText('Linen change').count(), 0, 'not another cleaner\'s task');
      const text = await page.locator('body').innerText();
      assert.doesNotMatch(text, /Gina|Guestly|@example\.com/, 'no guest on the page');
      // The page, header included, fits the phone's width: nothing to scroll sideways.
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
      assert.deepEqual(await seriousAccessibilityViolations(page), []);
      await page.screenshot({ path: join(SCREENSHOTS, `my-tasks-phone-${ctx.backend}.png`), fullPage: true });

      await card.getByRole('button', { name: 'Mark done: Cleaning' }).click();
      await card.getByRole('button', { name: 'Reopen: Cleaning' }).waitFor();
      await card.locator('[data-task-state="done"]').waitFor();
      const { rows: [stored] } = await ctx.db.query<{ completed_at: Date | null }>('SELECT completed_at FROM api.calendar_event_tasks WHERE id = $1', [cleaningId]);
      assert.ok(stored!.completed_at, 'done in the database');
      await page.screenshot({ path: join(SCREENSHOTS, `my-tasks-done-phone-${ctx.backend}.png`), fullPage: true });

      assert.ok(requests.some((url) => url.includes('/v1/calendar_event_tasks')), 'the page read the tasks');
      assert.deepEqual(requests.filter((url) => /bookings|contacts/.test(url)), [], 'no request asks for bookings or contacts');
      assert.deepEqual(bodies.filter((body) => /Gina|Guestly|@example\.com/.test(body)), [], 'no answer holds guest data');
      await page.getByRole('button', { name: 'Navigation' }).click();
      assert.equal(await page.getByRole('link', { name: 'Tasks', exact: true }).count(), 0, 'no board for a cleaner');
    } finally {
      await phone.close();
    }
  });

  it('a task template with a default member, put on a unit, gives the unit\'s next booking its task for that member', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/tasks`);
    const templates = page.getByRole('region', { name: 'Task templates' });
    await templates.getByLabel(/^Task/).fill('Deep cleaning');
    await templates.getByLabel(/^Hours/).fill('1');
    await pickMember(page, templates.getByLabel('Assigned by default to'), 'cleo (Cleaner)');
    await templates.getByRole('button', { name: 'Add template' }).click();
    await templates.getByRole('cell', { name: '1 h after departure' }).waitFor();
    await page.screenshot({ path: join(SCREENSHOTS, `templates-${ctx.backend}.png`), fullPage: true });

    await page.goto(`${session.base}/admin/units/${unitId}`);
    const tasks = page.getByRole('region', { name: 'Tasks', exact: true });
    await tasks.getByRole('combobox', { name: 'From template' }).click();
    await page.getByRole('option', { name: 'Deep cleaning' }).click();
    await tasks.getByRole('button', { name: 'Add task' }).click();
    await tasks.getByRole('cell', { name: 'cleo (template)' }).waitFor();
    await tasks.getByRole('cell', { name: '1 h after departure' }).waitFor();
    await tasks.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, `unit-tasks-${ctx.backend}.png`) });

    const booking = await data.row<{ id: string }>('bookings', {});
    const eventId = await data.event(unitId, { booking_id: booking.id, start_date: addDays(today, 10), end_date: addDays(today, 12), status: 'CONFIRMED' });
    const { rows } = await ctx.db.query<{ label: string; assignee_id: string | null; template: string | null }>(
      `SELECT t.label, t.assignee_id, p.task_template_id AS template FROM api.calendar_event_tasks AS t
       JOIN api.product_tasks AS p ON p.id = t.product_task_id WHERE t.calendar_event_id = $1`, [eventId]);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.label, 'Deep cleaning');
    assert.equal(rows[0]!.assignee_id, cleaner.memberId, 'the template\'s default member');
    assert.ok(rows[0]!.template, 'made from the template');
  });
  it('to-dos: the owner adds one for the unit, due today, for the cleaner, and one for nobody; the cleaner sees and completes only theirs', { skip }, async () => {
    const { page } = session;
    await page.goto(`${session.base}/admin/tasks`);
    const todos = page.getByRole('region', { name: 'To-dos' });
    const add = async (title: string, fields: { unit?: string; member?: string; priority?: string }) => {
      await todos.getByRole('textbox', { name: 'To-do', exact: true }).fill(title);
      if (fields.unit) {
        await todos.getByRole('combobox', { name: 'Unit' }).click();
        await page.getByRole('option', { name: fields.unit }).click();
      }
      await todos.getByLabel('Due on').fill(today);
      if (fields.priority) {
        await todos.getByRole('combobox', { name: 'Priority' }).click();
        await page.getByRole('option', { name: fields.priority }).click();
      }
      if (fields.member) {
        await pickMember(page, todos.getByLabel('Assigned to', { exact: true }), fields.member);
      }
      await todos.getByRole('button', { name: 'Add to-do' }).click();
      await todos.locator('[data-todo-id]').filter({ hasText: title }).waitFor();
    };
    await add('Fix the dripping tap', { unit: 'Harbour Studio', member: 'cleo (Cleaner)', priority: 'urgent' });
    await add('Buy light bulbs', {});
    const { rows: stored } = await ctx.db.query<{ title: string; priority: string; product_id: string | null; due: string; members: string[] }>(
      `SELECT t.title, t.priority, t.product_id, (t.due_at AT TIME ZONE o.timezone)::date::text AS due,
              coalesce(array_agg(a.member_id::text) FILTER (WHERE a.id IS NOT NULL), '{}') AS members
         FROM api.tasks AS t JOIN api.organizations AS o ON o.id = t.organization_id LEFT JOIN api.task_assignees AS a ON a.task_id = t.id
        WHERE t.organization_id = $1 AND t.title IN ('Fix the dripping tap', 'Buy light bulbs') GROUP BY t.id, t.title, t.priority, t.product_id, t.due_at, o.timezone ORDER BY t.title`,
      [session.seeded.organization_id]);
    assert.deepEqual(stored, [
      { title: 'Buy light bulbs', priority: 'normal', product_id: null, due: today, members: [] },
      { title: 'Fix the dripping tap', priority: 'urgent', product_id: unitId, due: today, members: [cleaner.memberId] },
    ]);
    // The board's unit filter narrows the to-dos too.
    await page.getByRole('combobox', { name: 'Unit' }).first().click();
    await page.getByRole('option', { name: 'Harbour Studio' }).click();
    await todos.locator('[data-todo-id]').filter({ hasText: 'Buy light bulbs' }).waitFor({ state: 'detached' });
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, `todos-${ctx.backend}.png`), fullPage: true });

    const phone = await browser().newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const cleanerPage = await phone.newPage();
    cleanerPage.setDefaultTimeout(30_000);
    cleanerPage.on('pageerror', (error) => session.pageErrors.push(error.message));
    try {
      await session.logIn(cleaner, cleanerPage);
      const mine = cleanerPage.getByRole('region', { name: 'To-dos' });
      const tap = mine.locator('[data-todo-id]').filter({ hasText: 'Fix the dripping tap' });
      await tap.getByText('Harbour Studio').waitFor();
      assert.equal(await mine.getByText('Buy light bulbs').count(), 0, 'a to-do of nobody is not theirs');
      assert.deepEqual(await seriousAccessibilityViolations(cleanerPage), []);
      await tap.getByRole('button', { name: 'Mark done: Fix the dripping tap' }).click();
      await tap.getByRole('button', { name: 'Reopen: Fix the dripping tap' }).waitFor();
      await cleanerPage.screenshot({ path: join(SCREENSHOTS, `my-todos-phone-${ctx.backend}.png`), fullPage: true });
      const { rows: [done] } = await ctx.db.query<{ completed: boolean }>(`SELECT completed_at IS NOT NULL AS completed FROM api.tasks WHERE title = 'Fix the dripping tap'`);
      assert.equal(done!.completed, true, 'completed by the cleaner, with the role\'s own permissions');
    } finally {
      await phone.close();
    }

    // Every unit again (a new visit): the to-do of nobody is deleted.
    await page.reload();
    await todos.getByRole('button', { name: 'Delete Buy light bulbs' }).click();
    await todos.getByText('Buy light bulbs').waitFor({ state: 'detached' });
    assert.equal((await ctx.db.query(`SELECT id FROM api.tasks WHERE title = 'Buy light bulbs'`)).rows.length, 0);
  });
});
