/**
 * Unit messages (/admin/settings/unit-messages) in a real browser (Debian's chromium through playwright-core), on
 * both backends, on the demo organization: the owner creates a message for the Beach House only — its own subject
 * and body, sent right after confirmation — and the database holds it linked to that unit alone; then a booking of
 * the Beach House gets it by e-mail (a real SMTP server, smtp-server) while a booking of the Harbour Apartment does
 * not. The e-mail template editor, which the message editor shares its texts with, still loads. axe finds no serious
 * or critical violation. Screenshots go to a temporary folder named in the output.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { browserMissing, fileBrowser, seriousAccessibilityViolations } from './support/browser.js';
import { dashboardSession } from './support/dashboard-session.js';
import { clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from '../automations/support.js';

const skip = browserMissing && 'chromium not found';
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'staykit-dashboard-unit-messages-shots-'));
console.log(`# screenshots: ${SCREENSHOTS}`);

const browser = fileBrowser();

forEachBackend('unit messages in the dashboard', (ctx) => {
  const session = dashboardSession(ctx, browser);
  let smtp: TestSmtpServer;
  let api: FastifyInstance;

  before(async () => {
    if (browserMissing) return;
    smtp = await startSmtpServer();
    api = await startApp(ctx.db);
  });
  after(async () => {
    await smtp?.close();
    await api?.close();
  });

  const unitId = async (name: string) => (await ctx.db.query<{ id: string }>(
    `SELECT id FROM api.products WHERE organization_id = $1 AND name->>'default' = $2`, [session.seeded.organization_id, name])).rows[0]!.id;

  /** Books `unit` for a guest on the first free Monday-to-Thursday from eight months on; answers the booking id. */
  const book = async (unit: string, email: string): Promise<string> => {
    const adults = (await ctx.db.query<{ id: string }>(
      `SELECT id FROM api.capacity_groups WHERE organization_id = $1 AND name->>'default' = 'Adults'`, [session.seeded.organization_id])).rows[0]!.id;
    const start = new Date();
    start.setUTCMonth(start.getUTCMonth() + 8);
    while (start.getUTCDay() !== 1) start.setUTCDate(start.getUTCDate() + 1);
    for (let week = 0; week < 20; week += 1) {
      const from = new Date(start.getTime() + week * 7 * 86_400_000);
      const to = new Date(from.getTime() + 3 * 86_400_000);
      const answer = await api.inject({
        method: 'POST', url: '/v1/book', headers: { authorization: `Bearer ${session.seeded.api_key}` },
        payload: { product_id: unit, interval: { start: from.toISOString().slice(0, 10), end: to.toISOString().slice(0, 10) }, occupancy: { [adults]: 2 }, contact: { first_name: 'Guest', email } },
      });
      if (answer.statusCode === 201) return answer.json<{ booking_id: string }>().booking_id;
    }
    throw new Error(`no free week for ${unit}`);
  };

  it('the owner creates a message for one unit; that unit\'s booking gets it, another unit\'s does not', { skip }, async () => {
    const { page } = session;
    const beach = await unitId('Beach House');
    const harbour = await unitId('Harbour Apartment');
    await session.logIn(session.owner);
    await page.getByRole('link', { name: 'Unit messages', exact: true }).click();
    await page.getByRole('heading', { name: 'Unit messages' }).waitFor();
    if (await page.getByRole('button', { name: 'New unit message' }).isVisible()) await page.getByRole('button', { name: 'New unit message' }).click();
    const form = page.getByRole('form', { name: 'New unit message' });
    await form.getByLabel('Name').fill('Parking at the beach');
    await form.getByLabel('Subject (Default)').fill('Where to park at the Beach House');
    await form.getByLabel('Body (Default)').fill('Dear {{ guest.first_name }},\n\nPark behind the dunes, in the second row.');
    await form.getByLabel('Its own moment').check();
    await form.getByLabel('Days').fill('0');
    await form.getByRole('combobox', { name: 'Counted' }).click();
    await page.getByRole('option', { name: 'days after confirmation' }).click();
    await form.getByLabel('Beach House').check();
    assert.deepEqual(await seriousAccessibilityViolations(page), []);
    await page.screenshot({ path: join(SCREENSHOTS, `dashboard-unit-message-${ctx.backend}.png`), fullPage: true });
    await form.getByRole('button', { name: 'Create message' }).click();
    await page.getByRole('form', { name: 'Edit unit message' }).waitFor();

    const { rows } = await ctx.db.query<{ id: string; subject: Record<string, string>; moment: unknown; active: boolean; units: string[] }>(
      `SELECT m.id, m.subject, m.moment, m.active, array(SELECT pm.product_id::text FROM api.product_message_templates AS pm WHERE pm.message_template_id = m.id) AS units
       FROM api.message_templates AS m WHERE m.organization_id = $1 AND m.name = 'Parking at the beach'`, [session.seeded.organization_id]);
    assert.equal(rows.length, 1);
    assert.deepEqual(rows[0]!.subject, { default: 'Where to park at the Beach House' });
    assert.deepEqual(rows[0]!.moment, { type: 'confirmation', offset: 0 });
    assert.deepEqual(rows[0]!.units, [beach]);

    await book(beach, 'beach.guest@example.com');
    await book(harbour, 'harbour.guest@example.com');
    await runDue(ctx.db, schedulerOptions(smtp, clock(new Date(Date.now() + 10 * 60_000).toISOString())));
    const parking = smtp.received.filter((mail) => /^Subject: Where to park/im.test(mail));
    assert.equal(parking.length, 1, 'one parking e-mail');
    assert.match(parking[0]!, /^To: .*beach\.guest@example\.com/im);
    assert.match(textOf(parseMime(parking[0]!)), /Dear Guest,\n\nPark behind the dunes/);
    assert.ok(smtp.received.some((mail) => /^To: .*harbour\.guest@example\.com/im.test(mail)), 'the harbour guest got the organization\'s other e-mails');

    // The e-mail template editor shares the texts' component and still edits.
    await page.getByRole('link', { name: 'E-mail templates', exact: true }).click();
    await page.getByLabel('Subject (Default)').waitFor();
  });
});
