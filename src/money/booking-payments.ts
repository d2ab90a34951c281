/**
 * The booking flow's calls into the money module (src/booking/routes.ts and book.ts call these, nothing else):
 * /quote shows the payment schedule; /book writes it as pending payments with their due dates, in the booking's
 * own transaction (on the booker's behalf, through a database function; the money invariants apply).
 */
import { todayIn } from '../common/dates.js';
import type { Queryable } from '../db/types.js';
import { loadPaymentMoments, paymentSchedule, type ScheduledPayment } from './schedule.js';

/** What the schedule needs of a prepared stay (src/booking/prepare.ts's PreparedBooking has it). */
export interface ScheduledStay {
  product: { id: string; timezone: string };
  stay: { start: string; endExclusive: string };
  priced: { quote: { total: number; currency: string } };
}

export async function scheduleOf(tx: Queryable, prepared: ScheduledStay, now: Date): Promise<ScheduledPayment[]> {
  const moments = await loadPaymentMoments(tx, prepared.product.id);
  return paymentSchedule(moments, {
    today: todayIn(prepared.product.timezone, now),
    start: prepared.stay.start,
    end: prepared.stay.endExclusive,
    total: prepared.priced.quote.total,
  });
}

/** The quote with its payment schedule. */
export async function quoteWithSchedule<Q extends object>(tx: Queryable, prepared: ScheduledStay & { priced: { quote: Q } }, now: Date): Promise<Q & { payment_schedule: ScheduledPayment[] }> {
  return { ...prepared.priced.quote, payment_schedule: await scheduleOf(tx, prepared, now) };
}

/** Writes the schedule of a new booking as pending payments, each due at the start of its day in the product's zone. */
export async function writePaymentSchedule(tx: Queryable, prepared: ScheduledStay, bookingId: string, now: Date): Promise<ScheduledPayment[]> {
  const schedule = await scheduleOf(tx, prepared, now);
  if (schedule.length === 0) return schedule;
  // On the booker's behalf (migration 0191): booking needs `bookings:write`, not `payments:write` as well.
  await tx.query(
    'SELECT staykit_internal.write_payment_schedule($1, $2, $3, $4::jsonb)',
    [bookingId, prepared.priced.quote.currency, prepared.product.timezone, JSON.stringify(schedule)],
  );
  return schedule;
}
