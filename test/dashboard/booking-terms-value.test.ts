/** The booking terms as the dashboard stores them (web/dashboard/src/settings/booking-terms.ts): English is the default. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { termsTexts, termsValue, TermsWithoutDefault } from '../../web/dashboard/src/settings/booking-terms.js';

it('reads plain text as the English text, and a MultiLanguageString by language (its own en before the default)', () => {
  assert.deepEqual(termsTexts(undefined), { en: '', nl: '', de: '' });
  assert.deepEqual(termsTexts('No pets.'), { en: 'No pets.', nl: '', de: '' });
  assert.deepEqual(termsTexts({ default: 'No pets.', nl: 'Geen huisdieren.' }), { en: 'No pets.', nl: 'Geen huisdieren.', de: '' });
  assert.deepEqual(termsTexts({ default: 'x', en: 'No pets.' }).en, 'No pets.');
});

it('stores English as the default (dropping an en that would hide it), nl and de when written, other languages kept', () => {
  assert.deepEqual(termsValue({ en: ' No pets. ', nl: '', de: 'Keine Haustiere.' }, { default: 'old', en: 'old', nl: 'oud', fr: 'Pas d\'animaux.' }),
    { fr: 'Pas d\'animaux.', default: 'No pets.', de: 'Keine Haustiere.' });
});

it('every text empty: no terms; a translation without the English text is refused', () => {
  assert.equal(termsValue({ en: ' ', nl: '', de: '' }, 'No pets.'), null);
  assert.throws(() => termsValue({ en: '', nl: 'Geen huisdieren.', de: '' }, null), TermsWithoutDefault);
});
