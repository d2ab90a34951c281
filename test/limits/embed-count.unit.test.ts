/**
 * The embed count of request-size.ts skips queries that cannot embed (no parenthesis, raw or percent-encoded), so
 * most requests are not parsed twice; an encoded embed must still count, or the limit could be walked around.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { embedsInQuery } from '../../src/limits/request-size.js';

test('a query without a parenthesis embeds nothing', () => {
  assert.equal(embedsInQuery('select=*&limit=100'), 0);
  assert.equal(embedsInQuery('select=id,name,total::text&order=name.desc'), 0);
});

test('percent-encoded parentheses are embeds all the same', () => {
  assert.equal(embedsInQuery('select=a%28b%28c%29%29'), 2);
  assert.equal(embedsInQuery('select=id,...b%28c%29&limit=1'), 1);
});

test('a parenthesis elsewhere in the query does not make a select embed', () => {
  assert.equal(embedsInQuery('select=id&or=(a.eq.1,b.eq.2)'), 0);
  assert.equal(embedsInQuery('select=a(b)&or=(a.eq.1,b.eq.2)'), 1);
});
