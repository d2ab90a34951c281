/**
 * One stay from request to priced, validated booking — shared by /quote, /book and the cart, so a quote is
 * exactly what a booking charges. Reads run as the API role inside the caller's transaction; /book calls this in
 * the same transaction that writes, so what was checked is what is written (and the exclusion constraint still
 * has the last word on overlaps made concurrently).
 */
import type { ApiError } from '../errors/api-error.js';
import type { Queryable } from '../db/types.js';
import { addDays, todayIn } from '../common/dates.js';
import { currencyNotSupported, notAvailable, occupancyInvalid, productNotFound, stayRulesViolated } from './errors.js';
import type { BookingInput, ContactInput } from './input.js';
import {
  localize, type BlockingEvent, type Capacity, type CapacityGroup, type Coupon, type Product, type Service, type Tax,
} from './model.js';
import {
  blockingEventsQuery, capacitiesQuery, capacityGroupsQuery, couponsQuery, loadNights, productsQuery, run,
  servicesQuery, taxesQuery,
} from './queries.js';
import { priceStay, type Priced } from './pricing.js';
import type { Quote as QuoteAnswer } from './answer-schemas.js';
import { displayCurrencyFor, withDisplayAmounts } from '../money/display-currency.js';
import { conflictingEvents, paddingFor, resolveOccupancy, stayRuleViolations, toStay, type Stay } from './rules.js';

export interface PreparedBooking {
  product: Product;
  stay: Stay;
  padding: number;
  occupancy: Record<string, number>;
  /** The price, in the display currency too (as /quote answers it, without its payment schedule). */
  priced: Priced & { quote: Omit<QuoteAnswer, 'payment_schedule'> };
  contact: ContactInput | null;
}

/** What is wrong with a stay, by kind: cart-validate reports them separately. */
export interface StayProblems {
  availability: ApiError[];
  occupancy: ApiError[];
}

export class StayRejected extends Error {
  constructor(readonly problems: StayProblems) {
    super('stay rejected');
  }

  get first(): ApiError {
    return (this.problems.availability[0] ?? this.problems.occupancy[0])!;
  }
}

const NAME_FIELDS: Record<string, keyof ContactInput | 'name'> = {
  name: 'name', 'full name': 'name', 'first name': 'first_name', 'last name': 'last_name', surname: 'last_name',
  email: 'email', 'e-mail': 'email', phone: 'phone', telephone: 'phone',
};

/** The guest from `contact` and the booking form: e-mail and phone fields, and text fields named like a name. */
export function contactFrom(input: BookingInput, services: Service[]): ContactInput | null {
  const contact: ContactInput = { ...(input.contact ?? {}) };
  for (const service of services) {
    const value = input.formValues[service.id];
    if (typeof value !== 'string' || value.trim() === '') continue;
    const label = (service.name.default ?? service.name.en ?? '').trim().toLowerCase();
    const field = service.type === 'email' ? 'email' : service.type === 'phone' ? 'phone'
      : service.type === 'text' ? NAME_FIELDS[label] : undefined;
    if (!field) continue;
    if (field === 'name') {
      const [first, ...rest] = value.trim().split(/\s+/);
      contact.first_name ??= first ?? '';
      contact.last_name ??= rest.join(' ');
    } else contact[field] ??= value.trim();
  }
  return Object.keys(contact).length > 0 ? contact : null;
}

/** The booking a change re-prepares: its own event does not conflict with its new dates, its coupon uses are its own. */
export interface ChangingBooking {
  eventId: string;
  bookingId: string;
}

export async function prepareBooking(
  tx: Queryable, input: BookingInput, now: Date, changing?: ChangingBooking,
): Promise<PreparedBooking> {
  const [product] = await run<Product>(tx, productsQuery([input.productId]));
  if (!product) throw productNotFound(input.productId);
  const stay = toStay(product.rent_period, input.interval);
  const display = await displayCurrencyFor(tx, product.currency, input.currency, (asked) => currencyNotSupported(asked, product.currency));
  const groups = await run<CapacityGroup>(tx, capacityGroupsQuery());
  const capacities = await run<Capacity>(tx, capacitiesQuery([product.id]));
  const resolved = resolveOccupancy(input.occupancy, groups, capacities, input.language);

  const nights = (await loadNights(tx, [product.id], stay.start, addDays(stay.endExclusive, -1), stay.length, resolved.guests))
    .get(product.id) ?? [];
  const today = todayIn(product.timezone, now);
  const problems: StayProblems = { availability: [], occupancy: [] };
  const ruleReasons = stayRuleViolations(product, stay, nights, today);
  if (ruleReasons.length > 0) problems.availability.push(stayRulesViolated(ruleReasons));
  const padding = paddingFor(product, nights[0]?.configuration ?? null);
  const events = await run<BlockingEvent>(tx, blockingEventsQuery([product.id], stay.start, [addDays(stay.endExclusive, padding)]));
  const conflicts = conflictingEvents(stay, padding, events.filter((event) => event.id !== changing?.eventId));
  if (conflicts.length > 0) {
    problems.availability.push(notAvailable(conflicts.map((event) =>
      (event.related_product_id ? `related unit ${event.related_product_id} ` : '') +
      `${event.type === 'booking' ? 'booked' : 'blocked'} from ${event.start_date} to ${event.end_date}` +
      (event.padding > 0 ? ` (+${event.padding} days cooldown)` : '')).join('\n') +
      (padding > 0 ? `\nthis stay needs ${padding} free days after checkout (cooldown)` : '')));
  }
  if (resolved.reasons.length > 0) problems.occupancy.push(occupancyInvalid(resolved.reasons));
  if (problems.availability.length > 0 || problems.occupancy.length > 0) throw new StayRejected(problems);

  const services = await run<Service>(tx, servicesQuery([product.id]));
  const taxes = await run<Tax>(tx, taxesQuery([product.id]));
  const coupons = input.couponCodes.length > 0 ? await run<Coupon>(tx, couponsQuery(input.couponCodes, changing?.bookingId)) : [];
  const stayPrice = priceStay({
    product, stay, nights, guests: resolved.guests, today, language: input.language, services,
    formValues: input.formValues, taxes, coupons, couponCodes: input.couponCodes,
  });
  const priced = { ...stayPrice, quote: withDisplayAmounts(stayPrice.quote, display) };
  return { product, stay, padding, occupancy: resolved.occupancy, priced, contact: contactFrom(input, services) };
}

/** The argument of staykit_internal.create_booking (its definition in effect: schema/schema.sql). */
export function bookingPayload(prepared: PreparedBooking, input: BookingInput): Record<string, unknown> {
  const { product, stay, priced } = prepared;
  const guest = prepared.contact ? [prepared.contact.first_name, prepared.contact.last_name].filter(Boolean).join(' ') : '';
  const productName = localize(product.name, input.language);
  return {
    product_id: product.id,
    start_date: stay.start,
    end_date: stay.endExclusive,
    padding: prepared.padding,
    status: product.interaction === 'book' ? 'CONFIRMED' : product.request_status,
    method: product.interaction,
    currency: priced.quote.currency,
    display_currency: priced.quote.display_currency,
    exchange_rate: priced.quote.exchange_rate,
    language: input.language,
    occupancy: prepared.occupancy,
    silent: input.silent,
    generated_title: guest ? `${productName} – ${guest}` : productName,
    contact: prepared.contact,
    line_items: priced.quote.line_items.map((item, index) => ({ ...item, name: priced.storedNames[index] })),
    details: priced.details,
    coupons: priced.couponUses.filter((use) => use.amount >= 0),
    site_id: input.siteId,
    widget_id: input.widgetId,
  };
}
