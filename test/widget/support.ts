/**
 * A booking website's organization: two widgets with one listed unit each, an unlisted unit, capacity groups, a
 * priced service, a form field, optional extras and a coupon (SUMMER10, 10 %), and publishable keys created through the API; written as the database owner.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../src/db/types.js';
import { createOrganization } from '../support/app.js';
import { fixtures, insert } from '../support/fixtures.js';

export interface WidgetOrganization {
  id: string;
  /** A secret key with read,write. */
  secretKey: string;
  widget: string;
  otherWidget: string;
  listed: string;
  otherListed: string;
  unlisted: string;
  adults: string;
  children: string;
  cleaning: string;
  email: string;
  /** Optional extras: a priced checkbox, and a select whose option "Premium" is priced. */
  breakfast: string;
  linen: string;
  premiumLinen: string;
}

export const ALLOWED_ORIGIN = 'https://rentals.example';

/** `intervals`: when the units have rates (default 2027–2028, the booking tests' pinned clock). */
export async function widgetOrganization(
  db: Database, name: string, allowedOrigins = [ALLOWED_ORIGIN], intervals = '{[2027-01-01,2028-12-31)}',
): Promise<WidgetOrganization> {
  const org = await createOrganization(db, name);
  const f = fixtures(db, org.id);
  const adults = await f.group('Adults', { requires_explicit_input: true, name_singular: { default: 'Adult' } });
  const children = await f.group('Children', { name_singular: { default: 'Child' } });
  const listed = await f.product({ name: { default: 'Dune House', nl: 'Duinhuis' }, exact_address: 'Zeeweg 1, Bergen' });
  await f.configuration(listed, { intervals, rates: [{ duration: 1, occupancy: 1, rate: 10000 }], min_duration: 2 });
  await f.capacity(listed, adults, 1, 4);
  await f.capacity(listed, children, 0, 2);
  const cleaning = await f.service(listed, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 5000 }, required: true });
  const email = await f.service(listed, { name: { default: 'E-mail' }, type: 'email', required: true });
  const breakfast = await f.service(listed, { name: { default: 'Breakfast', nl: 'Ontbijt' }, type: 'checkbox', pricing: { per: 'stay', amount: 2000 } });
  const linen = await f.service(listed, { name: { default: 'Bed linen' }, type: 'select' });
  await f.option(linen, 'Standard', null);
  const premiumLinen = await f.option(linen, 'Premium', { per: 'stay', amount: 1500 });
  await f.coupon({ code: 'SUMMER10', definition: { type: 'percentage', value: 10 } });
  const otherListed = await f.product({ name: { default: 'Forest Lodge' } });
  await f.configuration(otherListed, { intervals });
  const unlisted = await f.product({ name: { default: 'Owner Cottage' } });
  await f.configuration(unlisted, { intervals });
  const widget = (await insert<{ id: string }>(db, 'widgets', { organization_id: org.id, name: 'Main site', allowed_origins: `{${allowedOrigins.join(',')}}` })).id;
  const otherWidget = (await insert<{ id: string }>(db, 'widgets', { organization_id: org.id, name: 'Lodge site', allowed_origins: '{https://lodge.example}' })).id;
  await insert(db, 'widget_listings', { organization_id: org.id, widget_id: widget, product_id: listed });
  await insert(db, 'widget_listings', { organization_id: org.id, widget_id: otherWidget, product_id: otherListed });
  return { id: org.id, secretKey: org.key, widget, otherWidget, listed, otherListed, unlisted, adults, children, cleaning, email, breakfast, linen, premiumLinen };
}

/** Creates a publishable key for `widgetId` through POST /v1/publishable-keys. */
export async function publishableKeyFor(app: FastifyInstance, secretKey: string, widgetId: string): Promise<string> {
  const response = await app.inject({
    method: 'POST', url: '/v1/publishable-keys', headers: { authorization: `Bearer ${secretKey}` }, payload: { widget_id: widgetId, name: 'site' },
  });
  if (response.statusCode !== 201) throw new Error(`publishable key: ${response.statusCode} ${response.body}`);
  return response.json<{ key: string }>().key;
}

export interface WidgetSite {
  /** The site's own origin (`http://127.0.0.1:<port>`): another origin than Staykit's. */
  origin: string;
  /** What the page embeds from now on: widget.js from `staykit` with the publishable key `key`. */
  embed(staykit: string, key: string): void;
  close(): void;
}

/**
 * A booking website on an origin of its own whose page embeds the widget with the copy-paste snippet
 * (docs/widget.md): its origin is known first, so a widget can allow it before the key to embed exists.
 */
export async function widgetSite(title: string): Promise<WidgetSite> {
  let snippet = '';
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>body{margin:0;font-family:Georgia,serif;background:#f8fafc}main{max-width:46rem;margin:0 auto;padding:1rem}</style></head>
<body><main><h1>${title}</h1>${snippet}</main></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    embed: (staykit, key) => { snippet = `<script src="${staykit}/widget.js"></script><staykit-widget key="${key}"></staykit-widget>`; },
    close: () => server.close(),
  };
}
