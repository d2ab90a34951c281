/**
 * The widgets page's pure parts: the embed code a manager copies (escaped, for this server), the origin kept from a
 * pasted address, colours set and cleared without touching other settings, and the analytics table's days and totals.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { analyticsByDay } from '../../web/dashboard/src/widgets/analytics.js';
import { activeKey, embedSnippet, iframeCode } from '../../web/dashboard/src/widgets/embed-code.js';
import { normalizeOrigin, withColor } from '../../web/dashboard/src/widgets/widget-draft.js';

it('writes the snippet and the iframe for this server, a widget name with quotes escaped', () => {
  assert.equal(embedSnippet('https://staykit.example', 'pk_abc'),
    '<script src="https://staykit.example/widget.js"></script>\n<staykit-widget key="pk_abc"></staykit-widget>');
  assert.equal(iframeCode('https://staykit.example', 'w1', 'Tom & "Jerry" <b>'),
    '<iframe title="Tom &amp; &quot;Jerry&quot; &lt;b&gt;" src="https://staykit.example/w/w1" width="100%" height="900"></iframe>');
});

it('offers the first key not revoked, as /w/<id> uses it', () => {
  assert.equal(activeKey([{ key: 'a', revoked_at: '2026-01-01' }, { key: 'b', revoked_at: null }, { key: 'c', revoked_at: null }])?.key, 'b');
  assert.equal(activeKey([{ key: 'a', revoked_at: '2026-01-01' }]), undefined);
});

it('keeps the origin of a pasted address, and leaves what is no web address for the database to refuse', () => {
  assert.equal(normalizeOrigin(' https://www.Example.com/booking/?x=1 '), 'https://www.example.com');
  assert.equal(normalizeOrigin('http://localhost:8080/'), 'http://localhost:8080');
  assert.equal(normalizeOrigin('https://example.com:443'), 'https://example.com');
  assert.equal(normalizeOrigin('ftp://example.com'), 'ftp://example.com');
  assert.equal(normalizeOrigin('www.example.com'), 'www.example.com');
});

it('sets and clears a colour, keeping the other settings', () => {
  const settings = { display_currency: 'USD', primary_color: '#112233' };
  assert.deepEqual(withColor(settings, 'text_color', '#000000'), { display_currency: 'USD', primary_color: '#112233', text_color: '#000000' });
  assert.deepEqual(withColor(settings, 'primary_color', ''), { display_currency: 'USD' });
});

it('counts views, quotes and bookings per day, newest first, with the totals; other events are not shown', () => {
  assert.deepEqual(analyticsByDay([
    { day: '2026-11-28', event: 'view', count: 4 },
    { day: '2026-11-29', event: 'view', count: 2 },
    { day: '2026-11-29', event: 'quote', count: 1 },
    { day: '2026-11-28', event: 'booking', count: 1 },
    { day: '2026-11-27', event: 'search', count: 9 },
  ]), {
    days: [
      { day: '2026-11-29', counts: { view: 2, quote: 1, booking: 0 } },
      { day: '2026-11-28', counts: { view: 4, quote: 0, booking: 1 } },
    ],
    totals: { view: 6, quote: 1, booking: 1 },
  });
});
