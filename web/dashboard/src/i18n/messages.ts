/**
 * A feature's words: English is written once as the source, and Dutch and German must have exactly its keys (the
 * compiler refuses a missing or extra one), so no page can show a key or fall back to English unnoticed.
 * Placeholders are i18next's `{{name}}`; counts use its plural keys (`_one`, `_other`).
 */
export interface MessageTree {
  readonly [key: string]: string | MessageTree;
}

/** The shape of `Source` with every text a string: a translation has the same keys, nothing more, nothing less. */
export type Translation<Source> = { readonly [Key in keyof Source]: Source[Key] extends string ? string : Translation<Source[Key]> };

export interface FeatureMessages<Source extends MessageTree> {
  en: Source;
  nl: Translation<Source>;
  de: Translation<Source>;
}

export function defineMessages<const Source extends MessageTree>(en: Source, translations: { nl: Translation<Source>; de: Translation<Source> }): FeatureMessages<Source> {
  return { en, ...translations };
}
