/**
 * The booking model: the rows pricing and the stay rules work on (products, configurations, nights, blocking
 * events, capacities, services, taxes, coupons) and pure helpers over them. What reads them is in queries.ts.
 */
import type { Tables } from '../../schema/database.types.js';
import { localizedText } from '../common/languages.js';

export type MultiLanguage = Record<string, string>;

/**
 * The columns of a unit the booking rules and the pricing read, and so the ones their queries select. A column
 * added by a migration reaches `Product` by adding its name here: its type comes from the schema's generated types.
 */
export const PRODUCT_COLUMN_NAMES = [
  'id', 'parent_id', 'name', 'currency', 'timezone', 'rent_period', 'interaction', 'request_status', 'cooldown_time',
  'rent_pricing_definition',
] as const satisfies readonly (keyof Tables<'products'>)[];

/** A unit as those columns hold it; `name` is a JSON column, whose shape the database checks. */
export type Product = Omit<Pick<Tables<'products'>, (typeof PRODUCT_COLUMN_NAMES)[number]>, 'name'> & { name: MultiLanguage };

export interface Adjustment {
  min_duration?: number;
  min_advance?: number;
  max_advance?: number;
  percentage: number;
}

export interface Configuration {
  id: string;
  check_in_days: boolean[];
  checkout_days: boolean[];
  min_duration: number;
  max_duration: number;
  min_advance: number;
  max_advance: number;
  cooldown_time: number;
  long_rent_adjustments: Adjustment[];
  early_bird_adjustments: Adjustment[];
  last_minute_adjustments: Adjustment[];
}

/** One date of a stay: the configuration that governs it and the rate that applies to it for this stay. */
export interface Night {
  date: string;
  configuration: Configuration | null;
  rate: number | null;
}

export interface BlockingEvent {
  id: string;
  product_id: string;
  start_date: string;
  end_date: string;
  padding: number;
  status: 'TENTATIVE' | 'CONFIRMED';
  type: 'booking' | 'blocked period';
  /** Set when the event is a relative's (parent or child unit): it blocks this unit too. */
  related_product_id?: string | null;
}

export interface CapacityGroup {
  id: string;
  name: MultiLanguage;
  requires_explicit_input: boolean;
  /** The element groups when this group is an accumulator (capacity_group_dependencies), else empty. */
  elements: string[];
}

export interface Capacity {
  product_id: string;
  capacity_group_id: string;
  min: number;
  max: number | null;
}

export interface Pricing {
  per: 'stay' | 'night' | 'guest' | 'guest_night' | 'unit';
  amount: number;
  deposit?: boolean | number;
}

export interface ServiceOption {
  id: string;
  name: MultiLanguage;
  pricing: Pricing | null;
}

export interface Service {
  id: string;
  product_id: string;
  name: MultiLanguage;
  description: MultiLanguage;
  type: 'fee' | 'text' | 'email' | 'phone' | 'number' | 'checkbox' | 'select' | 'quantity';
  pricing: Pricing | null;
  required: boolean;
  max_quantity: number | null;
  options: ServiceOption[];
}

export interface Tax {
  id: string;
  product_id: string;
  name: string;
  percentage: number;
  inclusive: boolean;
  applies_to: 'rent' | 'services' | 'all';
}

export interface CouponDefinition {
  type: 'percentage' | 'fixed';
  value: number;
  min_duration?: number;
  booking_from?: string;
  booking_until?: string;
  stay_from?: string;
  stay_until?: string;
}

export interface Coupon {
  id: string;
  code: string;
  definition: CouponDefinition;
  quota: number | null;
  scope: 'global' | 'product' | 'service' | 'rent';
  stackable: boolean;
  uses: number;
  product_ids: string[];
  service_ids: string[];
}

/** Rows by their product, each list in the rows' order. */
export function groupBy<T extends { product_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.product_id);
    if (list) list.push(row);
    else map.set(row.product_id, [row]);
  }
  return map;
}

/** The text of `name` in `language` by the one rule of src/common/languages.ts. */
export const localize: (name: MultiLanguage | null | undefined, language: string) => string = localizedText;
