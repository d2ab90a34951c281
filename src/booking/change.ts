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
import { bookingNotChangeable, bookingNotFound } from './errors.js';
import { checkInterval, toCouponCodes, toFormValues, toOccupancy, type BookingInput, type Interval } from './input.js';
import { canonicalJson } from './idempotency.js';
import { localize } from './model.js';
import { bookingPayload, prepareBooking } from './prepare.js';
import { run } from './queries.js';
import { changeBookingQuery, currentBookingQuery, type ChangedBookingRow, type CurrentBookingRow } from './lifecycle-queries.js';
import type { ChangeBody } from './request-schemas.js';
import type { ChangeResult } from './answer-schemas.js';

export interface ChangeInput {
  bookingId: string;
  dryRun: boolean;
  productId?: string;
  interval?: Interval;
  occupancy?: Record<string, number>;
  formValues?: Record<string, unknown>;
  couponCodes?: string[];
}

/** The validated body → the change: only what was sent changes. */
export function toChangeInput(body: ChangeBody): ChangeInput {
  const input: ChangeInput = { bookingId: body.booking_id.toLowerCase(), dryRun: body.dry_run === true };
  if (body.product_id !== undefined) input.productId = body.product_id.toLowerCase();
  if (body.interval !== undefined) input.interval = checkInterval(body.interval);
  if (body.occupancy !== undefined) input.occupancy = toOccupancy(body.occupancy);
  if (body.form_values !== undefined) input.formValues = toFormValues(body.form_values);
  if (body.coupon_codes !== undefined) input.couponCodes = toCouponCodes(body.coupon_codes);
  return input;
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
