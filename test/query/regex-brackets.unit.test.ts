/**
 * The regex-safety check reading bracket expressions and quantifiers, each case inside a quantified group so that a
 * misread changes the verdict: a `+`, `*` or `{…}` inside brackets is a character, not a quantifier, so `(…)*` around
 * it is safe; read as a quantifier it would be refused as a quantified group holding one. Run by the mutation run of
 * src/query/parse (scripts/mutation-modules.js).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { unsafeRegexReason } from '../../src/query/parse/regex-safety.js';

const NESTED = 'a quantified group may not hold a quantifier itself, as in (a+)*';

describe('bracket expressions inside a quantified group', () => {
  it('a leading ^ and a leading ] are part of the expression', () => {
    for (const pattern of ['([^+])*', '([]+])*', '([^]+])*', '([+])*', '([^^+])*']) assert.equal(unsafeRegexReason(pattern), undefined, pattern);
    assert.equal(unsafeRegexReason('([]a]b+)*'), NESTED, 'the quantifier after the expression still counts');
  });

  it('[:class:], [.coll.] and [=equiv=] inside brackets do not end them', () => {
    for (const pattern of ['([[:alpha:]+])*', '([[.-.]+])*', '([[=e=]+])*', '([[:alpha:][:digit:]+])*', '([a[:space:]+])*']) {
      assert.equal(unsafeRegexReason(pattern), undefined, pattern);
    }
    assert.equal(unsafeRegexReason('([[:alpha:]]b+)*'), NESTED);
    assert.equal(unsafeRegexReason('([[:alpha:]+]x+)*'), NESTED, 'the expression ends at the ] after the class');
  });

  it('a [ without :, . or = is a character; an unclosed class runs to the end of the pattern', () => {
    assert.equal(unsafeRegexReason('([[a]b+)*'), NESTED, '[[a] is one expression, b+ a quantifier');
    assert.equal(unsafeRegexReason('([[:alpha)+'), undefined, 'everything after [[: is inside the expression');
    assert.equal(unsafeRegexReason('([[:a:+]x)*'), undefined);
  });

  it('an escaped ] does not end the expression, and the escape takes the next character with it', () => {
    assert.equal(unsafeRegexReason('([\\]+])*'), undefined);
    assert.equal(unsafeRegexReason('([\\\\]b+)*'), NESTED, '[\\\\] ends at its ]');
    assert.equal(unsafeRegexReason('([a\\]+]b+)*'), NESTED);
  });

  it('an unclosed expression runs to the end of the pattern', () => {
    assert.equal(unsafeRegexReason('([a+)*'), undefined);
    assert.equal(unsafeRegexReason('[a+(b+)*'), undefined);
  });
});

describe('quantifier forms inside a quantified group', () => {
  it('{m}, {m,} and {m,n} with several digits are quantifiers; braces without a count are characters', () => {
    for (const quantifier of ['{10}', '{10,}', '{10,20}', '{1,}', '{2}?', '{12,345}?']) {
      assert.equal(unsafeRegexReason(`(a${quantifier})*`), NESTED, quantifier);
    }
    for (const braces of ['{}', '{,5}', '{a}', '{1', '{1,2', '']) {
      assert.equal(unsafeRegexReason(`(a${braces})*`), undefined, braces);
    }
  });

  it('a lazy ? belongs to its quantifier: it is neither a second quantifier nor an atom', () => {
    assert.equal(unsafeRegexReason('(a)*?b'), undefined);
    assert.equal(unsafeRegexReason('(a)+?'), undefined);
    assert.equal(unsafeRegexReason('(a)??'), undefined);
    assert.equal(unsafeRegexReason(`${'a*?'.repeat(20)}`), undefined);
    assert.equal(unsafeRegexReason(`${'a*?'.repeat(20)}b?`), 'a pattern may hold at most 20 quantifiers (*, +, ?, {m,n})');
  });

  it('the first atom of the pattern, and the one after a group, can be quantified', () => {
    assert.equal(unsafeRegexReason('a*'.repeat(21)), 'a pattern may hold at most 20 quantifiers (*, +, ?, {m,n})');
    assert.equal(unsafeRegexReason('((a)b*)+'), NESTED);
    assert.equal(unsafeRegexReason('((a)*)b+'), undefined);
    assert.equal(unsafeRegexReason('(a)|(b+)'), undefined);
  });

  it('options: only a (?letters) prefix or *** at the very start', () => {
    assert.match(unsafeRegexReason('(?ix)a') ?? '', /embedded options/);
    assert.equal(unsafeRegexReason('(?1)a'), undefined);
    assert.equal(unsafeRegexReason('x(?i)'), undefined);
    assert.equal(unsafeRegexReason('(?:a+)b'), undefined, 'a non-capturing group is no option');
    assert.equal(unsafeRegexReason('(?<=a+)'), undefined);
    assert.equal(unsafeRegexReason('(?:a+)*'), NESTED);
  });

  it('back references: \\1 to \\9, including one at the end of a group', () => {
    assert.equal(unsafeRegexReason('(a)(\\1)'), 'back references (\\1 … \\9) are not supported');
    assert.equal(unsafeRegexReason('(a)\\a'), undefined);
  });
});
