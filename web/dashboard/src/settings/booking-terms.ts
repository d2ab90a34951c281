/**
 * organizations.settings.booking_terms (migration 0225) as the dashboard edits it: an English text, shown in every
 * language without its own (the MultiLanguageString's `default`), and Dutch and German ones. Texts in other languages
 * written through the API are kept as they are.
 */
export interface TermsTexts {
  en: string;
  nl: string;
  de: string;
}

export type StoredTerms = string | Record<string, string> | null | undefined;

/** The texts of the stored terms (plain text counts as the English one). */
export function termsTexts(stored: StoredTerms): TermsTexts {
  if (stored === null || stored === undefined) return { en: '', nl: '', de: '' };
  if (typeof stored === 'string') return { en: stored, nl: '', de: '' };
  return { en: stored.en ?? stored.default ?? '', nl: stored.nl ?? '', de: stored.de ?? '' };
}

export class TermsWithoutDefault extends Error {
  constructor() {
    super('Write the English text too: guests whose language has no text of its own read it.');
  }
}

/**
 * The value to store for `texts`: null when every text is empty (no booking terms), else a MultiLanguageString whose
 * `default` is the English text (an `en` of its own would hide it in English) with `nl` and `de` when written.
 */
export function termsValue(texts: TermsTexts, stored: StoredTerms): Record<string, string> | null {
  const written = { en: texts.en.trim(), nl: texts.nl.trim(), de: texts.de.trim() };
  if (!written.en && !written.nl && !written.de) return null;
  if (!written.en) throw new TermsWithoutDefault();
  const kept = stored && typeof stored === 'object' ? Object.fromEntries(Object.entries(stored).filter(([key]) => !['default', 'en', 'nl', 'de'].includes(key))) : {};
  return { ...kept, default: written.en, ...(written.nl ? { nl: written.nl } : {}), ...(written.de ? { de: written.de } : {}) };
}
