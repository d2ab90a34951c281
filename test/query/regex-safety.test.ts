import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUANTIFIERS, unsafeRegexReason } from '../../src/query/parse/regex-safety.js';
import { arrayElements } from '../../src/query/parse/patterns.js';

describe('regex safety', () => {
  it('accepts ordinary patterns', () => {
    for (const pattern of ['^A[a-z]+$', 'foo|bar', '(ab)+c', '(?:a|b){2,3}', '[(*+?]+', '[]\\d)]*x', '[[:alpha:]]+', 'a{2}b?', '\\d+-\\w*', '(a)(b)*', '\\0']) {
      assert.equal(unsafeRegexReason(pattern), undefined, pattern);
    }
  });

  it('refuses back references', () => {
    for (const pattern of ['(a)\\1', '(a)(b)\\2', 'x\\9']) assert.match(unsafeRegexReason(pattern) ?? '', /back references/, pattern);
    assert.notEqual(unsafeRegexReason('([a-z]+)*\\1'), undefined);
    // A digit in a bracket expression is no back reference.
    assert.equal(unsafeRegexReason('(a)[\\1]'), undefined);
  });

  it('refuses a quantified group holding a quantifier, at any depth', () => {
    for (const pattern of ['(a+)*', '(a*)*b', '(x{1,100}){1,100}', '((a|b+)c)+', '(?:a?b)*', '((ab)*)+', '(a+){2}']) {
      assert.match(unsafeRegexReason(pattern) ?? '', /quantified group/, pattern);
    }
  });

  it(`refuses more than ${MAX_QUANTIFIERS} quantifiers, and syntax switches`, () => {
    assert.equal(unsafeRegexReason('x?'.repeat(MAX_QUANTIFIERS)), undefined);
    assert.match(unsafeRegexReason('x?'.repeat(MAX_QUANTIFIERS + 1)) ?? '', /at most 20 quantifiers/);
    for (const pattern of ['***=(a+)*', '***:a', '(?b)\\(a*\\)*']) assert.match(unsafeRegexReason(pattern) ?? '', /embedded options/, pattern);
  });

  it('reads (any)/(all) lists as PostgreSQL reads array literals', () => {
    assert.deepEqual(arrayElements('{a, "b,c" ,d\\,e,"\\\\1"}'), ['a', 'b,c', 'd,e', '\\1']);
  });
});
