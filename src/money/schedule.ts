/**
 * The payment schedule of a stay (docs/payments.md#schedules): the moments of the product's services
 * (service_payment_moments: 30 % at confirmation, the rest 14 days before check-in, …) applied to the quote's total,
 * each with its amount and due date in the product's time zone. Amounts are integers and add up to the total
 * exactly: the last moment takes what is left. Without any moment the whole total is due at confirmation.
 */
import { addDays } from '../common/dates.js';
import type { Queryable } from '../db/types.js';

export type MomentType = 'check-in' | 'checkout' | 'confirmation' | 'on-site' | 'request';

export interface PaymentMoment {
  moment: { type: MomentType; offset: number };
  value: { type: 'percentage' | 'fixed'; value: number };
}

export interface ScheduledPayment {
  amount: number;
  /** The due date, `YYYY-MM-DD` in the product's time zone. */
  due_date: string;
  moment: PaymentMoment['moment'];
}

export interface ScheduleStay {
  /** Today in the product's time zone: the booking's date. */
  today: string;
  start: string;
  /** The checkout date (first free date). */
  end: string;
  total: number;
}

/** The tables the schedule is read from (the booking flow's transaction must be able to read them). */
export const SCHEDULE_TABLES = ['service_payment_moments', 'product_services'];

export async function loadPaymentMoments(tx: Queryable, productId: string): Promise<PaymentMoment[]> {
  const { rows } = await tx.query<PaymentMoment>(
    `SELECT m.moment, m.value FROM api.service_payment_moments AS m
     JOIN api.product_services AS ps ON ps.service_id = m.service_id
     WHERE ps.product_id = $1
     ORDER BY ps."order", m.created_at, m.id`,
    [productId],
  );
  return rows;
}

function dueDate(moment: PaymentMoment['moment'], stay: ScheduleStay): string {
  const base = moment.type === 'check-in' || moment.type === 'on-site' ? stay.start
    : moment.type === 'checkout' ? stay.end : stay.today;
  const date = addDays(base, moment.offset);
  // Nothing is due before the booking is made.
  return date < stay.today ? stay.today : date;
}

export function paymentSchedule(moments: PaymentMoment[], stay: ScheduleStay): ScheduledPayment[] {
  if (stay.total <= 0) return [];
  const dated = (moments.length > 0 ? moments : [{ moment: { type: 'confirmation', offset: 0 }, value: { type: 'percentage', value: 100 } } satisfies PaymentMoment])
    .map((moment, index) => ({ ...moment, index, due_date: dueDate(moment.moment, stay) }))
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.index - b.index);
  const schedule: ScheduledPayment[] = [];
  let left = stay.total;
  dated.forEach((moment, position) => {
    const last = position === dated.length - 1;
    const wanted = moment.value.type === 'percentage' ? Math.round((stay.total * moment.value.value) / 100) : moment.value.value;
    const amount = last ? left : Math.min(wanted, left);
    if (amount <= 0) return;
    schedule.push({ amount, due_date: moment.due_date, moment: moment.moment });
    left -= amount;
  });
  return schedule;
}
