/**
 * POST /v1/booking-change (docs/booking.md#changing-a-booking): a live booking's new stay — dates, unit,
 * occupancy, form values, coupon codes; whatever is not sent stays as booked — checked against every rule and priced
 * by the same function as /quote (prepare.ts), with the booking's own event and coupon uses out of the way. With
 * `dry_run` nothing is written; otherwise staykit_internal.change_booking (migrations/0104, 0210, 0230) moves the
 * event, replaces the lines and re-splits the payments still to pay over the new stay's schedule (docs/payments.md),
 * in the request's transaction, where the exclusion constraints have the last word.
 */
import type { Queryable } from '../db/types.js';
import { addDays } from '../common/dates.js';
import { scheduleOf } from '../money/booking-payments.js';
import { bookingNotChangeable, bookingNotFound, invalidInput } from './errors.js';
import {
  OPTION_FIELDS, parseCouponCodes, parseInterval, parseOccupancy, parseUuid, rejectUnknownFields, requireObject, STAY_FIELDS,
  type BookingInput, type Interval,
} from './input.js';
import { canonicalJson } from './idempotency.js';
import { localize } from './model.js';
import { bookingPayload, prepareBooking } from './prepare.js';
import type { Quote } from './pricing.js';
import { run } from './queries.js';
import { changeBookingQuery, currentBookingQuery, type ChangedBookingRow, type CurrentBookingRow } from './lifecycle-queries.js';

export interface ChangeInput {
  bookingId: string;
  dryRun: boolean;
  productId?: string;
  interval?: Interval;
  occupancy?: Record<string, number>;
  formValues?: Record<string, unknown>;
  couponCodes?: string[];
}

/** What the booking's money is after a change: paid (less refunds), still to pay, and paid beyond the new total. */
export interface ChangedPayments {
  paid: number;
  to_pay: number;
  refund_due: number;
}

export interface ChangeResult {
  booking_id: string;
  reference: string;
  dry_run: boolean;
  /** What differs from the booking as it was: `{field: {old, new}}`. */
  changes: Record<string, { old: unknown; new: unknown }>;
  previous_total: number;
  total: number;
  delta: number;
  quote: Quote;
  /** After a change (not a dry run) of a booking made by the booking flow. */
  payments?: ChangedPayments;
}

export function parseChangeInput(value: unknown): ChangeInput {
  const body = requireObject(value, 'The request body');
  rejectUnknownFields(body, ['booking_id', 'dry_run', ...STAY_FIELDS, 'coupon_codes']);
  if (body.dry_run !== undefined && typeof body.dry_run !== 'boolean') throw invalidInput('dry_run must be a boolean');
  // The options of /book (currency, contact, …) are the booking's and do not change with it.
  for (const field of OPTION_FIELDS) if (field in body) throw invalidInput(`${field} cannot be changed`);
  const parsed = parseBookingFields(body);
  return { bookingId: parseUuid(body.booking_id, 'booking_id'), dryRun: body.dry_run === true, ...parsed };
}

function parseBookingFields(body: Record<string, unknown>): Omit<ChangeInput, 'bookingId' | 'dryRun'> {
  const result: Omit<ChangeInput, 'bookingId' | 'dryRun'> = {};
  if (body.product_id !== undefined) result.productId = parseUuid(body.product_id, 'product_id');
  if (body.interval !== undefined) result.interval = parseInterval(body.interval);
  if (body.occupancy !== undefined) result.occupancy = parseOccupancy(body.occupancy);
  if (body.form_values !== undefined) {
    const values = requireObject(body.form_values, 'form_values');
    result.formValues = Object.fromEntries(Object.entries(values).map(([id, v]) => [parseUuid(id, 'form_values keys'), v]));
  }
  if (body.coupon_codes !== undefined) result.couponCodes = parseCouponCodes(body.coupon_codes);
  return result;
}

/** The booking's interval as a client sends it: `end` is the checkout date (nightly) or the last day (daily). */
function bookedInterval(row: CurrentBookingRow): Interval {
  return { start: row.start_date, end: row.rent_period === 'daily' ? addDays(row.end_date, -1) : row.end_date };
}

function differences(before: Record<string, unknown>, after: Record<string, unknown>): ChangeResult['changes'] {
  const changes: ChangeResult['changes'] = {};
  for (const [field, old] of Object.entries(before)) {
    if (canonicalJson(old) !== canonicalJson(after[field])) changes[field] = { old, new: after[field] };
  }
  return changes;
}

export async function changeBooking(tx: Queryable, input: ChangeInput, now: Date): Promise<ChangeResult> {
  const [current] = await run<CurrentBookingRow>(tx, currentBookingQuery(input.bookingId));
  if (!current) throw bookingNotFound(input.bookingId);
  if (!current.event_id) throw bookingNotChangeable('The booking is cancelled: it cannot be changed');
  if (current.origin === 'import') {
    throw bookingNotChangeable('An imported reservation is changed by its channel: POST /v1/import-booking');
  }
  const booking: BookingInput = {
    productId: input.productId ?? current.product_id,
    interval: input.interval ?? bookedInterval(current),
    occupancy: input.occupancy ?? current.occupancy,
    formValues: input.formValues ?? current.form_values,
    couponCodes: input.couponCodes ?? current.coupon_codes,
    currency: null, language: current.language, silent: true, acceptTerms: false, redirectUrl: null, contact: null, siteId: null, widgetId: null,
  };
  const prepared = await prepareBooking(tx, booking, now, { eventId: current.event_id, bookingId: current.id });
  const total = prepared.priced.quote.total;
  const changes = differences({
    product_id: current.product_id, interval: bookedInterval(current), occupancy: current.occupancy,
    form_values: current.form_values, coupon_codes: current.coupon_codes,
  }, {
    product_id: booking.productId, interval: booking.interval, occupancy: prepared.occupancy,
    form_values: booking.formValues, coupon_codes: booking.couponCodes,
  });
  const result: ChangeResult = {
    booking_id: current.id, reference: current.reference, dry_run: input.dryRun, changes,
    previous_total: current.total, total, delta: total - current.total, quote: prepared.priced.quote,
  };
  if (input.dryRun) return result;
  const payload = bookingPayload(prepared, booking);
  // The guest's name stays in the event title; only the unit's name changes with the unit.
  const guest = current.generated_title.split(' – ').slice(1).join(' – ');
  const productName = localize(prepared.product.name, current.language);
  const [changed] = await run<ChangedBookingRow>(tx, changeBookingQuery(current.id, {
    ...payload, generated_title: guest ? `${productName} – ${guest}` : productName,
    changes, previous_total: current.total, total,
    // The new stay's schedule, as /quote shows it today: the database re-splits what is still to pay over it.
    payment_schedule: await scheduleOf(tx, prepared, now), timezone: prepared.product.timezone,
  }));
  if (changed?.result.payments) result.payments = changed.result.payments;
  return result;
}
