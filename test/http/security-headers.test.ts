/**
 * Every answer of the server carries `X-Content-Type-Options: nosniff`, and none can be framed by another site —
 * API answers, /docs (where API keys are pasted), /admin, /health, /metrics, errors of every layer and 404s — except
 * the widget page `/w/<id>`, which its widget's allowed origins frame by design and which keeps its own policy.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, startApp } from '../support/app.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization, type WidgetOrganization } from '../widget/support.js';

function assertUnframable(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  assert.match(String(response.headers['content-security-policy']), /(^|; ?)frame-ancestors 'none'(;|$)/, `${what}: ${String(response.headers['content-security-policy'])}`);
}

forEachBackend('security headers on every answer', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;

  before(async () => {
    app = await startApp(ctx.db, { bodyLimitBytes: 1024, rateLimit: { perMinute: 1000, burst: 0 } });
    org = await widgetOrganization(ctx.db, 'Headers');
    await publishableKeyFor(app, org.secretKey, org.widget);
  });
  after(() => app.close());

  it('nosniff and no framing: API, /docs, /admin, health, metrics, errors of every layer, 404s', async () => {
    const requests: [string, InjectOptions][] = [
      ['a resource read', { method: 'GET', url: '/v1/products?select=id', headers: bearer(org.secretKey) }],
      ['a write', { method: 'POST', url: '/v1/contacts', headers: bearer(org.secretKey), payload: { first_name: 'Ada' } }],
      ['no key (401)', { method: 'GET', url: '/v1/products' }],
      ['a filter error (400)', { method: 'GET', url: '/v1/products?id=nope.1', headers: bearer(org.secretKey) }],
      ['a body too large (413)', { method: 'POST', url: '/v1/contacts', headers: bearer(org.secretKey), payload: { first_name: 'x'.repeat(2000) } }],
      ['a path the router cannot decode (400 before routing)', { method: 'GET', url: '/v1/%E0%A4%A', headers: bearer(org.secretKey) }],
      ['no route (404)', { method: 'GET', url: '/no/such/page' }],
      ['the OpenAPI document', { method: 'GET', url: '/v1/openapi.json' }],
      ['/docs', { method: 'GET', url: '/docs' }],
      ['/docs/', { method: 'GET', url: '/docs/' }],
      ['/docs/init.js', { method: 'GET', url: '/docs/init.js' }],
      ['a /docs asset', { method: 'GET', url: '/docs/assets/swagger-ui.css' }],
      ['/admin', { method: 'GET', url: '/admin/' }],
      ['/health', { method: 'GET', url: '/health' }],
      ['/ready', { method: 'GET', url: '/ready' }],
      ['/metrics', { method: 'GET', url: '/metrics' }],
      ['a login error', { method: 'POST', url: '/auth/login', payload: { email: 'nobody@example.com', password: 'wrong password' } }],
      ['/auth/session without one', { method: 'GET', url: '/auth/session' }],
      ['a guest page that does not exist', { method: 'GET', url: `/g/${'a'.repeat(32)}` }],
      ['an unknown widget page', { method: 'GET', url: '/w/00000000-0000-4000-8000-000000000000' }],
      ['an iCal feed that does not exist', { method: 'GET', url: '/v1/ical/nope.ics' }],
    ];
    for (const [what, request] of requests) assertUnframable(await app.inject(request), what);
  });

  it('/docs keeps its page to this server: its own scripts, styles and requests only', async () => {
    const policy = String((await app.inject({ method: 'GET', url: '/docs' })).headers['content-security-policy']);
    for (const directive of ["default-src 'self'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "base-uri 'self'"]) {
      assert.ok(policy.split('; ').includes(directive), `${directive} in ${policy}`);
    }
    assert.match((await app.inject({ method: 'GET', url: '/docs/init.js' })).body, /validatorUrl: null/);
  });

  it('the widget page keeps its own framing rules: its allowed origins, no X-Frame-Options', async () => {
    const page = await app.inject({ method: 'GET', url: `/w/${org.widget}` });
    assert.equal(page.statusCode, 200, page.body);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(String(page.headers['content-security-policy']), new RegExp(`frame-ancestors 'self' ${ALLOWED_ORIGIN.replace(/\./g, '\\.')};`));
    assert.equal(page.headers['x-frame-options'], undefined);
  });
});
