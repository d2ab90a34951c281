/**
 * Booking free days picked on the timeline: the unit's guest groups, then POST /v1/quote and POST /v1/book with the
 * session (the same endpoints and rules as any website; requestJson adds the CSRF token).
 */
import { database, rowsOf, type Enums } from '../api/database';
import { requestJson } from '../api/http';
import { addDays } from '../common/dates';
import { localized } from '../common/format';

/** A group guests are counted in (adults, children…), with the unit's limits; sums like "guests" are left out. */
export interface GuestGroup {
  id: string;
  name: string;
  min: number;
  max: number | null;
}

/** A service of the unit the form asks for: an extra the guest may take, or a detail of the booking form. */
export interface FormService {
  id: string;
  name: string;
  type: Enums<'services_type'>;
  required: boolean;
  maxQuantity: number | null;
}

/** Extras are chosen (ticked or counted); details are written (text, e-mail, phone). Fees are always charged, never asked. */
export const EXTRA_TYPES: readonly Enums<'services_type'>[] = ['checkbox', 'quantity', 'number'];
export const DETAIL_TYPES: readonly Enums<'services_type'>[] = ['text', 'email', 'phone'];

export interface BookableUnit {
  rentPeriod: Enums<'products_rent_period'>;
  groups: GuestGroup[];
  services: FormService[];
}

export async function loadBookableUnit(unitId: string, locale: string): Promise<BookableUnit> {
  const [product, groups, sums, capacities, services] = await Promise.all([
    database.from('products').select('rent_period').eq('id', unitId).single(),
    database.from('capacity_groups').select('id,name,requires_explicit_input').order('order').order('id'),
    database.from('capacity_group_dependencies').select('accumulator_id'),
    database.from('capacities').select('capacity_group_id,min,max').eq('product_id', unitId),
    database.from('services').select('id,name,type,required,max_quantity,product_services!inner(product_id)')
      .eq('product_services.product_id', unitId).eq('active', true).order('order').order('id'),
  ]);
  const accumulators = new Set(rowsOf(sums).map((row) => row.accumulator_id));
  const limits = new Map(rowsOf(capacities).map((row) => [row.capacity_group_id, row]));
  const guestGroups = rowsOf(groups)
    // As the booking widget: the groups the unit limits, or that must be given, and never a sum of others.
    .filter((group) => !accumulators.has(group.id) && (limits.has(group.id) || group.requires_explicit_input))
    .map((group) => ({ id: group.id, name: localized(group.name, locale), min: limits.get(group.id)?.min ?? 0, max: limits.get(group.id)?.max ?? null }));
  const asked = rowsOf(services).filter((service) => EXTRA_TYPES.includes(service.type) || DETAIL_TYPES.includes(service.type))
    .map((service) => ({ id: service.id, name: localized(service.name, locale), type: service.type, required: service.required, maxQuantity: service.max_quantity }));
  return { rentPeriod: rowsOf(product).rent_period, groups: guestGroups, services: asked };
}

/** The first guest group starts at one guest (at least its minimum), the others at their minimum. */
export function initialOccupancy(groups: GuestGroup[]): Record<string, number> {
  return Object.fromEntries(groups.map((group, index) => [group.id, index === 0 ? Math.max(group.min, 1) : group.min]));
}

/**
 * The API's interval for picked days `[start, end)`: a nightly unit's stay holds those nights and checks out on
 * `end`; a daily unit's interval ends on its last day.
 */
export function stayInterval(rentPeriod: BookableUnit['rentPeriod'], days: { start: string; end: string }): { start: string; end: string } {
  return { start: days.start, end: rentPeriod === 'daily' ? addDays(days.end, -1) : days.end };
}

export interface StayRequest {
  product_id: string;
  interval: { start: string; end: string };
  occupancy: Record<string, number>;
  contact: { first_name?: string; last_name?: string; email?: string; phone?: string };
  /** Extras and booking details: service id → value. */
  form_values: Record<string, string | number | boolean>;
  coupon_codes: string[];
  /** No e-mail to the guest about this booking (only with /book). */
  silent?: boolean;
}

export interface Quote {
  currency: string;
  total: number;
  deposit: number;
  line_items: { item_type: string; fee_type: 'fee' | 'deposit'; name: string; quantity: number; amount: number }[];
}

export const quoteStay = (stay: StayRequest) => requestJson<Quote>('POST', '/v1/quote', stay);

/** Books with an Idempotency-Key kept for the dialog, so a repeated click or retry cannot book twice. */
export const bookStay = (stay: StayRequest, idempotencyKey: string) =>
  requestJson<{ reference: string; booking_id: string }>('POST', '/v1/book', stay, { 'Idempotency-Key': idempotencyKey });
