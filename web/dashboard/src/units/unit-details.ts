/**
 * A unit's details as the add-unit form and the details section edit them, and how they are read from and written to
 * `products` (POST /v1/create-product takes the same columns as PATCH /v1/products). Listed once: `DETAIL_COLUMNS` is
 * both the select and the fields an API error may name.
 */
import type { Enums, Selected } from '../api/database';
import { editedTexts, noTexts, storedTexts, type EditedTexts } from './language-texts';

export const DETAIL_COLUMNS = [
  'name', 'description', 'approximate_address', 'exact_address', 'hide_exact_address', 'timezone', 'currency',
  'rent_period', 'interaction', 'latest_arrival_time',
] as const;
export type DetailField = (typeof DETAIL_COLUMNS)[number];

export const DETAILS_SELECT = 'id,name,description,approximate_address,exact_address,hide_exact_address,timezone,currency,rent_period,interaction,latest_arrival_time';
export type StoredDetails = Selected<'products', typeof DETAILS_SELECT>;

export interface UnitDetails {
  name: EditedTexts;
  description: EditedTexts;
  approximate_address: string;
  exact_address: string;
  hide_exact_address: boolean;
  timezone: string;
  currency: string;
  rent_period: Enums<'products_rent_period'>;
  interaction: Enums<'products_interaction'>;
  /** `HH:MM`, or '' for none. */
  latest_arrival_time: string;
}

/** A new unit's starting point: the organization's time zone and currency, nightly, on request (the API's default). */
export function newUnitDetails(organization: { timezone?: string; currency?: string }): UnitDetails {
  return {
    name: noTexts(), description: noTexts(), approximate_address: '', exact_address: '', hide_exact_address: true,
    timezone: organization.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone, currency: organization.currency ?? 'EUR', rent_period: 'nightly', interaction: 'request', latest_arrival_time: '',
  };
}

export function detailsOf(row: StoredDetails): UnitDetails {
  return {
    name: editedTexts(row.name), description: editedTexts(row.description), approximate_address: row.approximate_address,
    exact_address: row.exact_address, hide_exact_address: row.hide_exact_address, timezone: row.timezone, currency: row.currency,
    rent_period: row.rent_period, interaction: row.interaction,
    latest_arrival_time: row.latest_arrival_time?.slice(0, 5) ?? '',
  };
}

/** The columns to write; `stored` keeps texts in languages the form does not edit. */
export function detailsBody(details: UnitDetails, stored?: StoredDetails) {
  return {
    name: storedTexts(details.name, stored?.name), description: storedTexts(details.description, stored?.description),
    approximate_address: details.approximate_address.trim(), exact_address: details.exact_address.trim(),
    hide_exact_address: details.hide_exact_address, timezone: details.timezone, currency: details.currency.trim().toUpperCase(),
    rent_period: details.rent_period, interaction: details.interaction, latest_arrival_time: details.latest_arrival_time || null,
  };
}
