/**
 * docs/getting-started.md works verbatim on a fresh start: every `curl` of the guide runs, as written, against the
 * app on a freshly seeded demo organization (its product and capacity-group ids, its key and its booking reference
 * put in for the guide's sample ones, as a reader does), and the stay the guide books is free in the demo data.
 * The app's clock is the guide's day, so its prices (no early-bird or last-minute adjustment) hold.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { seedDemoOrganization } from '../../src/seed/demo-organization.js';

const GUIDE = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'getting-started.md'), 'utf8');
/** The day the guide's sample answers were taken (its booking's confirmed_at). */
const GUIDE_DAY = new Date('2026-11-22T12:00:00Z');

/** The commands of the guide's `sh` blocks, as shell words: quotes, `$VAR`, line continuations, comments. */
function shellCommands(script: string, vars: Record<string, string>): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word: string | undefined;
  const variable = (at: number) => /^\$([A-Z_]+)/.exec(script.slice(at))![1]!;
  const endWord = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  for (let i = 0; i < script.length;) {
    const c = script[i]!;
    if (c === '\\' && script[i + 1] === '\n') {
      endWord();
      i += 2;
    } else if (c === "'") {
      const close = script.indexOf("'", i + 1);
      word = (word ?? '') + script.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      let j = i + 1;
      let text = '';
      while (script[j] !== '"') {
        if (script[j] === '$') {
          const name = variable(j);
          text += vars[name] ?? `$${name}`;
          j += name.length + 1;
        } else text += script[j++];
      }
      word = (word ?? '') + text;
      i = j + 1;
    } else if (c === '$') {
      const name = variable(i);
      word = (word ?? '') + (vars[name] ?? `$${name}`);
      i += name.length + 1;
    } else if (c === '#' && word === undefined) {
      i = script.indexOf('\n', i);
    } else if (c === ' ' || c === '\t' || c === '\n') {
      endWord();
      if (c === '\n' && words.length > 0) {
        commands.push(words);
        words = [];
      }
      i++;
    } else {
      word = (word ?? '') + c;
      i++;
    }
  }
  endWord();
  if (words.length > 0) commands.push(words);
  return commands;
}

/** The guide's `curl` commands, in order, with the variables a reader has set by then. */
function curls(vars: Record<string, string>): string[][] {
  const blocks = [...GUIDE.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
  return blocks.flatMap((block) => shellCommands(block, vars)).filter((words) => words[0] === 'curl');
}

interface Answer {
  status: number;
  body: unknown;
}

/** Runs one curl's words against the app: -s, -G, -H, -d and --data-urlencode, as curl reads them. */
async function runCurl(app: FastifyInstance, words: string[]): Promise<Answer> {
  let url = '';
  let get = false;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  const query: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    if (word === '-s' || word === '-sG' || word === '-G') get ||= word.includes('G');
    else if (word === '-H') {
      const [name, ...value] = words[++i]!.split(':');
      headers[name!.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') body = words[++i];
    else if (word === '--data-urlencode') {
      const [name, ...value] = words[++i]!.split('=');
      query.push(`${name}=${encodeURIComponent(value.join('='))}`);
    } else if (!word.startsWith('-')) url = word;
    else throw new Error(`the test does not know curl's ${word}`);
  }
  const path = new URL(url).pathname + new URL(url).search;
  const target = query.length > 0 ? `${path}${path.includes('?') ? '&' : '?'}${query.join('&')}` : path;
  const response = await app.inject({ method: body === undefined || get ? 'GET' : 'POST', url: target, headers, payload: body });
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}

forEachBackend('docs/getting-started.md on a fresh demo organization', (ctx) => {
  let app: FastifyInstance;
  let key: string;

  before(async () => {
    app = await startApp(ctx.db, { now: () => GUIDE_DAY });
    key = (await seedDemoOrganization(ctx.db)).api_key;
  });
  after(() => app.close());

  it('runs every request of the guide as written, and books the guide\'s stay on the first try', async () => {
    const vars: Record<string, string> = { STAYKIT: 'http://127.0.0.1:3000/v1', KEY: key };
    const sampleReference = /"reference": "([A-Z0-9]{3}-[A-Z0-9]{4})"/.exec(GUIDE)![1]!;
    const steps = curls(vars);
    assert.equal(steps.length, 5, 'the guide has five requests');

    const products = await runCurl(app, steps[0]!);
    assert.equal(products.status, 200, JSON.stringify(products.body));
    const [beachHouse] = products.body as { id: string; capacities: { capacity_group_id: string; capacity_groups: { name: { default: string } } }[] }[];
    assert.equal((products.body as unknown[]).length, 1);
    vars.PRODUCT = beachHouse!.id;
    vars.ADULTS = beachHouse!.capacities.find((capacity) => capacity.capacity_groups.name.default === 'Adults')!.capacity_group_id;

    const [, availability, quote, book] = curls(vars);
    const free = await runCurl(app, availability!);
    assert.equal(free.status, 200, JSON.stringify(free.body));
    const days = (free.body as { days: { date: string; status: string }[] }[])[0]!.days;
    for (const date of ['2027-02-03', '2027-02-04', '2027-02-05']) {
      assert.equal(days.find((day) => day.date === date)?.status, 'available', `${date} is free for the guide's stay`);
    }

    const price = await runCurl(app, quote!);
    assert.equal(price.status, 200, JSON.stringify(price.body));
    assert.deepEqual({ total: (price.body as { total: number }).total, valid: (price.body as { valid: boolean }).valid }, { total: 43500, valid: true });

    const booked = await runCurl(app, book!);
    assert.equal(booked.status, 201, JSON.stringify(booked.body));
    const { reference } = booked.body as { reference: string };
    const again = await runCurl(app, book!);
    assert.deepEqual(again, booked, 'the same Idempotency-Key answers the same booking');

    const look = curls(vars)[4]!.map((word) => word.replace(sampleReference, reference));
    const found = await runCurl(app, look);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const [booking] = found.body as { reference: string; confirmed_at: string | null; calendar_events: unknown[] }[];
    assert.equal(booking!.reference, reference);
    assert.ok(booking!.confirmed_at);
    assert.deepEqual(booking!.calendar_events, [{ start_date: '2027-02-03', end_date: '2027-02-06', status: 'CONFIRMED' }]);
  });
});
