/** One rule for reading a MultiLanguageString in a person's language (src/common/languages.ts). */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { localizedText } from '../../src/common/languages.js';

describe('localizedText', () => {
  const name = { default: 'Dune House', 'nl-NL': 'Duinhuis', de: 'Dünenhaus' };

  it('takes the exact language, case-insensitively', () => {
    assert.equal(localizedText(name, 'nl-NL'), 'Duinhuis');
    assert.equal(localizedText(name, 'nl-nl'), 'Duinhuis');
    assert.equal(localizedText(name, 'de'), 'Dünenhaus');
  });

  it('falls back to a text of the same primary language, in both directions', () => {
    assert.equal(localizedText(name, 'nl'), 'Duinhuis', 'nl finds nl-NL');
    assert.equal(localizedText(name, 'nl-BE'), 'Duinhuis', 'nl-BE finds nl-NL');
    assert.equal(localizedText(name, 'de-AT'), 'Dünenhaus', 'de-AT finds de');
    assert.equal(localizedText({ default: 'x', nl: 'y', 'nl-BE': 'z' }, 'nl-NL'), 'y', 'the bare language before a sibling region');
  });

  it('then the default, then any text, then nothing', () => {
    assert.equal(localizedText(name, 'fr'), 'Dune House');
    assert.equal(localizedText({ 'nl-NL': 'Duinhuis' }, 'fr'), 'Duinhuis');
    assert.equal(localizedText({}, 'fr'), '');
    assert.equal(localizedText(null, 'nl'), '');
  });
});
