/**
 * The organization's profile as the Organization page edits it: the columns an organization may change (name, default
 * language, currency, time zone; migration 0236), its brand colour in `settings` (migration 0235) and its address —
 * the seller on its invoices, `settings.invoices.seller` (migration 0215), the one place the engine reads an
 * organization's address from. Saving writes the settings back whole, every other key (booking terms, the other
 * invoice settings, …) as it was read.
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
  /** The seller's fields; '' leaves one out. */
  seller: SellerForm;
}

/** The address fields of `settings.invoices.seller.address`, in the order the page shows them. */
export const ADDRESS_FIELDS = ['street', 'postal_code', 'city', 'region', 'country'] as const;
/** The seller's other fields, beside its address. */
export const SELLER_FIELDS = ['legal_name', 'vat_id', 'registration_number', 'email', 'phone', 'website'] as const;
export type SellerField = (typeof ADDRESS_FIELDS)[number] | (typeof SELLER_FIELDS)[number];
export type SellerForm = Record<SellerField, string>;

/** The most the database takes in one seller field (is_invoice_settings). */
export const SELLER_FIELD_MAX = 500;

type StoredSeller = Partial<Record<(typeof SELLER_FIELDS)[number], string>> & { address?: Partial<Record<(typeof ADDRESS_FIELDS)[number], string>> };

const invoiceSettingsOf = (settings: OrganizationSettings): Record<string, unknown> => {
  const invoices = settings.invoices;
  return typeof invoices === 'object' && invoices !== null ? invoices as Record<string, unknown> : {};
};

/** The stored seller as the form edits it. */
export function sellerForm(settings: OrganizationSettings): SellerForm {
  const seller = (invoiceSettingsOf(settings).seller ?? {}) as StoredSeller;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    ...Object.fromEntries(SELLER_FIELDS.map((field) => [field, text(seller[field])])),
    ...Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(seller.address?.[field])])),
  } as SellerForm;
}

/** The seller as stored: fields left empty are left out, and so is an empty address or seller. */
export function storedSeller(form: SellerForm): StoredSeller | null {
  const filled = <Field extends SellerField>(fields: readonly Field[]) =>
    Object.fromEntries(fields.map((field) => [field, form[field].trim()]).filter(([, value]) => value !== '')) as Partial<Record<Field, string>>;
  const address = filled(ADDRESS_FIELDS);
  const seller: StoredSeller = { ...filled(SELLER_FIELDS), ...(Object.keys(address).length > 0 ? { address } : {}) };
  return Object.keys(seller).length > 0 ? seller : null;
}

export function profileForm(row: Pick<Row<'organizations'>, 'name' | 'language' | 'currency' | 'timezone' | 'settings'>): ProfileForm {
  const color = row.settings.brand_color;
  return {
    name: row.name, language: row.language, currency: row.currency, timezone: row.timezone,
    brandColor: typeof color === 'string' ? color : '', seller: sellerForm(row.settings),
  };
}

/** What is wrong with a field: a key of the page's `problems` words. */
export type ProfileProblem = 'nameMissing' | 'colorFormat' | 'tooLong';

/** What the form says is wrong before it is sent (the database checks the same), by field; empty when nothing is. */
export function profileProblems(form: ProfileForm): Partial<Record<'name' | 'brandColor' | SellerField, ProfileProblem>> {
  const tooLong = Object.entries(form.seller).filter(([, value]) => value.trim().length > SELLER_FIELD_MAX).map(([field]) => [field, 'tooLong' as const]);
  return {
    ...(form.name.trim() === '' ? { name: 'nameMissing' } : {}),
    ...(form.brandColor !== '' && !BRAND_COLOR_PATTERN.test(form.brandColor) ? { brandColor: 'colorFormat' } : {}),
    ...Object.fromEntries(tooLong),
  };
}

/** `settings` with `key` set to `value`, or without `key` when `value` is null; the other keys as they were. */
export function withSetting<Settings extends Record<string, unknown>>(settings: Settings, key: string, value: unknown): Settings {
  const others = Object.fromEntries(Object.entries(settings).filter(([name]) => name !== key));
  return (value === null ? others : { ...others, [key]: value }) as Settings;
}

/** The row's update for `form`. */
export function profileUpdate(form: ProfileForm, settings: OrganizationSettings) {
  const withColor = withSetting(settings, 'brand_color', form.brandColor === '' ? null : form.brandColor.toLowerCase());
  const invoices = withSetting(invoiceSettingsOf(settings), 'seller', storedSeller(form.seller));
  return {
    name: form.name.trim(), language: form.language, currency: form.currency, timezone: form.timezone,
    settings: withSetting(withColor, 'invoices', Object.keys(invoices).length > 0 ? invoices : null),
  };
}

/**
 * Languages offered as the default (each a BCP 47 tag the database accepts). Staykit's own texts for guests — the
 * default e-mails — exist in the first three; the organization's current language is offered too when not listed.
 */
export const DEFAULT_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'it', 'pt', 'da', 'sv', 'nb', 'fi', 'pl', 'cs'] as const;

/** The language choices, each named in the reader's language (`reader`), with `current` among them. */
export function languageChoices(current: string, reader: string): { value: string; label: string }[] {
  const names = new Intl.DisplayNames([reader, 'en'], { type: 'language' });
  const tags: string[] = DEFAULT_LANGUAGES.includes(current as (typeof DEFAULT_LANGUAGES)[number]) ? [...DEFAULT_LANGUAGES] : [...DEFAULT_LANGUAGES, current];
  return tags.map((tag) => ({ value: tag, label: `${names.of(tag) ?? tag} (${tag})` }));
}
