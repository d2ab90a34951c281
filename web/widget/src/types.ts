/**
 * The shapes the widget reads from Staykit's API (docs/widget.md, docs/booking.md). The booking flow's answers are the
 * API's own schemas' types (src/booking/answer-schemas.ts, the ones the OpenAPI document is made of): a renamed or
 * retyped answer field fails the widget's typecheck.
 */
import type { CancellationRule } from '../../../src/common/cancellation-policy.js';
import type { BookResult, Day, ProductAvailability, Quote } from '../../../src/booking/answer-schemas.js';

import type { BookingBody } from '../../../src/booking/request-schemas.js';
import type { CatalogueAttribute, CatalogueImage, CatalogueProduct } from '../../../src/widget/bodies.js';

export type { BookingBody, CatalogueAttribute, CatalogueImage, Day, ProductAvailability, Quote };
/** /v1/book's answer; with the widget's publishable key it carries the guest's page (`guest_url`). */
export type Booked = BookResult;

export type MultiLanguageString = Record<string, string>;

export interface Catalogue {
  widget: { id: string; name: string; language: string; settings: Record<string, unknown> } | null;
  site: { id: string; name: string; default_language: string } | null;
  products: Product[];
  capacity_groups: CapacityGroup[];
  services: Service[];
  /** The organization's attributes and their options: a unit's (attribute_option_ids) are among its key facts. */
  attributes: CatalogueAttribute[];
  /** The organization's booking terms: the guest accepts them before booking (null without; docs/widget.md). */
  booking_terms?: string | MultiLanguageString | null;
}

/** A unit; its photos and key facts by the API's own schema (src/widget/bodies.ts). */
export interface Product extends Pick<CatalogueProduct, 'images' | 'latest_arrival_time' | 'attribute_option_ids'> {
  id: string;
  name: MultiLanguageString;
  description: MultiLanguageString;
  currency: string;
  rent_period: 'daily' | 'nightly';
  interaction: 'book' | 'request';
  confirmation_message: MultiLanguageString;
  capacities: { capacity_group_id: string; min: number; max: number | null }[];
  service_ids: string[];
  /** What a cancellation refunds, by days before arrival (empty: everything paid). */
  cancellation_policy?: CancellationRule[];
}

export interface CapacityGroup {
  id: string;
  name: MultiLanguageString;
  type: string;
  requires_explicit_input: boolean;
  element_ids: string[];
}

export interface Service {
  id: string;
  name: MultiLanguageString;
  description: MultiLanguageString;
  type: 'fee' | 'text' | 'email' | 'phone' | 'number' | 'checkbox' | 'select' | 'quantity';
  pricing: { per: string; amount: number } | null;
  required: boolean;
  max_quantity: number | null;
  options: { id: string; name: MultiLanguageString }[];
}

export interface ApiProblem {
  code: string;
  message: string;
  details: unknown;
}
