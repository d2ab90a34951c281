/**
 * The password rules on their own (no database): the length bounds counted in characters, white space, zxcvbn's
 * verdict with the user's e-mail address as a known word, and the generated demo password passing them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from '../../src/users/password-rules.js';
import { generatePassword } from '../../src/users/password.js';

describe('password rules', () => {
  it('counts characters, not UTF-16 units, at both bounds', async () => {
    assert.equal(await passwordProblem('Zq7#vK2$wL'), undefined, `${MIN_PASSWORD_LENGTH} characters are enough`);
    assert.equal(await passwordProblem('Zq7#vK2$w'), `The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
    assert.equal(await passwordProblem('Zq7#vK2$w🦊'), undefined, 'ten characters, eleven UTF-16 units');
    assert.equal(await passwordProblem('Zq7#vK2$🦊'), `The password must have at least ${MIN_PASSWORD_LENGTH} characters`, 'nine characters, ten units');
    const longest = `Zq7#vK2$wL${'🦊'.repeat(MAX_PASSWORD_LENGTH - 10)}`;
    assert.equal(await passwordProblem(longest), undefined);
    assert.equal(await passwordProblem(`${longest}x`), `The password must have at most ${MAX_PASSWORD_LENGTH} characters`);
  });

  it('refuses a password made of the user\'s own e-mail address, and accepts it for someone else', async () => {
    assert.match(String(await passwordProblem('marguerite.dubois2024', ['marguerite.dubois@example.org'])), /^The password is too easy to guess\./);
    assert.equal(await passwordProblem('marguerite.dubois2024', ['ana@example.org']), undefined);
  });

  it('gives advice when zxcvbn has none of its own', async () => {
    const problem = await passwordProblem('abcdefghijk');
    assert.match(String(problem), /^The password is too easy to guess\. .+/);
  });

  it('accepts every generated demo password', async () => {
    for (let i = 0; i < 50; i++) {
      const password = generatePassword();
      assert.equal(await passwordProblem(password, ['demo@staykit.local']), undefined, password);
    }
  });
});
