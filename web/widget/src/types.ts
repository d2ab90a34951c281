/** The shapes the widget reads from Staykit's API (docs/widget.md, docs/booking.md). */
import type { CancellationRule } from '../../../src/common/cancellation-policy.js';

export type MultiLanguageString = Record<string, string>;

export interface Catalogue {
  widget: { id: string; name: string; language: string; settings: Record<string, unknown> } | null;
  site: { id: string; name: string; default_language: string } | null;
  products: Product[];
  capacity_groups: CapacityGroup[];
  services: Service[];
  /** The organization's booking terms: the guest accepts them before booking (null without; docs/widget.md). */
  booking_terms?: string | MultiLanguageString | null;
}

export interface Product {
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

export interface Day {
  date: string;
  status: string;
  check_in: boolean;
  checkout: boolean;
  min_duration: number | null;
  max_duration: number | null;
  rate: number | null;
}

export interface Quote {
  currency: string;
  total: number;
  deposit: number;
  /** The widget's display currency (settings.display_currency) and the total in it, when it differs. */
  display_currency: string;
  display_total: number;
  line_items: { name: string; quantity: number; amount: number; fee_type: string }[];
  /** When the guest pays what (due dates in the unit's calendar; today's is paid on booking). */
  payment_schedule?: { amount: number; due_date: string }[];
}

export interface Booked {
  reference: string;
  booking_id: string;
  payment_url: string | null;
  guest_url?: string;
}

export interface ApiProblem {
  code: string;
  message: string;
  details: unknown;
}
