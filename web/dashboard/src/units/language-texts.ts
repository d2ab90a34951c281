/**
 * The languages a unit's texts are written in here, and the MultiLanguageString they are stored as: `default` is the
 * English text (what every language without its own shows), `nl` and `de` only when written. Texts in languages the
 * form does not offer are kept as they were.
 */
import type { LanguageTexts } from '../../../../src/common/languages.js';

/** Each text's key in the stored texts, and the language it is written in (named for the reader: reader-words.ts). */
export const TEXT_LANGUAGES = [
  { key: 'default', language: 'en' },
  { key: 'nl', language: 'nl' },
  { key: 'de', language: 'de' },
] as const;

export type TextLanguage = (typeof TEXT_LANGUAGES)[number]['key'];
export type EditedTexts = Record<TextLanguage, string>;

export const noTexts = (): EditedTexts => ({ default: '', nl: '', de: '' });

/** The stored texts as the form edits them (`en` read as English when there is no `default`). */
export function editedTexts(stored: LanguageTexts | null | undefined): EditedTexts {
  return { default: stored?.default ?? stored?.en ?? '', nl: stored?.nl ?? '', de: stored?.de ?? '' };
}

/** The edited texts as stored: the languages left empty are left out, the others of `stored` kept. */
export function storedTexts(texts: EditedTexts, stored: LanguageTexts = {}): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(stored).filter(([key]) => !TEXT_LANGUAGES.some((language) => language.key === key)));
  const written = Object.fromEntries(TEXT_LANGUAGES.filter(({ key }) => key === 'default' || texts[key].trim() !== '').map(({ key }) => [key, texts[key].trim()]));
  return { ...kept, ...written };
}
