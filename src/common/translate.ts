/**
 * Words of the server's own (labels of pages, e-mail blocks) in the languages Staykit speaks to guests: English,
 * Dutch and German, chosen by the primary subtag of a language tag (`nl-BE` → Dutch); any other language reads
 * English. `{name}` placeholders are filled from `values`.
 */
export const GUEST_LANGUAGES = ['en', 'nl', 'de'] as const;
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];

export type Translate<Labels> = (key: keyof Labels, values?: Record<string, string | number>) => string;

/** The primary language of `tag` if Staykit speaks it, else English. */
export function guestLanguageOf(tag: string): GuestLanguage {
  const primary = tag.toLowerCase().split(/[-_]/)[0];
  return (GUEST_LANGUAGES as readonly string[]).includes(primary ?? '') ? primary as GuestLanguage : 'en';
}

export function translator<Labels extends Record<string, string>>(tables: Record<GuestLanguage, Labels>, language: string): Translate<Labels> {
  const labels = tables[guestLanguageOf(language)];
  return (key, values = {}) => labels[key]!.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
