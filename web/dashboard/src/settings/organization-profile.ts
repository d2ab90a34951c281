/**
 * The organization's profile as the Organization page edits it: the columns an organization may change (name, default
 * language, currency, time zone; migration 0236) and its brand colour in `settings` (migration 0235). Saving writes
 * the settings back whole, every other key (booking terms, invoice settings, …) as it was read.
 */
import { BRAND_COLOR_PATTERN } from '../../../../src/common/brand-color.js';
import type { Row } from '../api/database';

export type OrganizationSettings = Row<'organizations'>['settings'];

export interface ProfileForm {
  name: string;
  language: string;
  currency: string;
  timezone: string;
  /** `#rrggbb`, or '' for none. */
  brandColor: string;
}

export function profileForm(row: Pick<Row<'organizations'>, 'name' | 'language' | 'currency' | 'timezone' | 'settings'>): ProfileForm {
  const color = row.settings.brand_color;
  return { name: row.name, language: row.language, currency: row.currency, timezone: row.timezone, brandColor: typeof color === 'string' ? color : '' };
}

/** What the form says is wrong before it is sent (the database checks the same), by field; empty when nothing is. */
export function profileProblems(form: ProfileForm): Partial<Record<keyof ProfileForm, string>> {
  return {
    ...(form.name.trim() === '' ? { name: 'The organization needs a name.' } : {}),
    ...(form.brandColor !== '' && !BRAND_COLOR_PATTERN.test(form.brandColor) ? { brandColor: 'Write the colour as # and six hexadecimal digits, e.g. #0f766e.' } : {}),
  };
}

/** `settings` with `key` set to `value`, or without `key` when `value` is null; the other keys as they were. */
export function withSetting(settings: OrganizationSettings, key: string, value: unknown): OrganizationSettings {
  const others = Object.fromEntries(Object.entries(settings).filter(([name]) => name !== key));
  return value === null ? others : { ...others, [key]: value };
}

/** The row's update for `form`. */
export function profileUpdate(form: ProfileForm, settings: OrganizationSettings) {
  return {
    name: form.name.trim(), language: form.language, currency: form.currency, timezone: form.timezone,
    settings: withSetting(settings, 'brand_color', form.brandColor === '' ? null : form.brandColor.toLowerCase()),
  };
}

/**
 * Languages offered as the default (each a BCP 47 tag the database accepts). Staykit's own texts for guests — the
 * default e-mails — exist in the first three; the organization's current language is offered too when not listed.
 */
export const DEFAULT_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'da', 'sv', 'nb', 'fi', 'pl', 'cs'] as const;

/** The language choices, each named in English, with `current` among them. */
export function languageChoices(current: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames(['en'], { type: 'language' });
  const tags: string[] = DEFAULT_LANGUAGES.includes(current as (typeof DEFAULT_LANGUAGES)[number]) ? [...DEFAULT_LANGUAGES] : [...DEFAULT_LANGUAGES, current];
  return tags.map((tag) => ({ value: tag, label: `${names.of(tag) ?? tag} (${tag})` }));
}
