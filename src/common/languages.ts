/**
 * Reading a MultiLanguageString (`{"default": …, "nl-NL": …}`) in a person's language — one rule for the server,
 * e-mails, the guest page, invoices, the widget and the dashboard (which import this file), so a text shows the same
 * everywhere: the exact language, then a text of the same primary language in either direction (`nl` finds `nl-NL`,
 * `nl-BE` finds `nl` or `nl-NL`), then `default`, then any text. Language tags compare case-insensitively. Pure,
 * no Node.js: browsers run it too.
 */

export type LanguageTexts = Readonly<Record<string, string>>;

const primaryOf = (tag: string): string => tag.toLowerCase().split(/[-_]/)[0] ?? '';

/** The key of `texts` that best fits `language` by the rule above (not `default`), or undefined. */
export function bestLanguageKey(keys: readonly string[], language: string): string | undefined {
  const wanted = language.toLowerCase();
  const primary = primaryOf(language);
  const languages = keys.filter((key) => key !== 'default');
  return languages.find((key) => key.toLowerCase() === wanted)
    ?? languages.find((key) => key.toLowerCase() === primary)
    ?? languages.find((key) => primaryOf(key) === primary);
}

/** `texts` in `language`: the best-fitting language's text, else `default`, else any; '' for none. */
export function localizedText(texts: LanguageTexts | null | undefined, language: string): string {
  if (!texts) return '';
  const key = bestLanguageKey(Object.keys(texts), language);
  const text = key === undefined ? undefined : texts[key];
  return text ?? texts.default ?? Object.values(texts)[0] ?? '';
}
