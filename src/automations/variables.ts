/**
 * The variables a template sees (docs/automations.md#variables lists every one; a test keeps the list and this
 * file in step). Texts are in the guest's language — the contact's, else the booking's, else the organization's —
 * taken from each MultiLanguageString (exact language, then its primary subtag, then `default`). Money is given
 * formatted in that language (`total`) and in minor units (`total_minor`).
 */
import { guestCount } from '../common/guests.js';
import { localizedText } from '../common/languages.js';
import type { BookingPayment, BookingRecord, MultiLanguageString } from './context.js';
import { messageLabels, type MessageLabels } from './labels.js';

export interface TemplateVariables {
  guest: { first_name: string; last_name: string; name: string; email: string; phone: string; language: string };
  booking: {
    id: string; reference: string; status: string; created_at: string; confirmed_at: string; language: string;
    currency: string; total: string; total_minor: number; deposit: string; deposit_minor: number; guests: number;
    refunded: string; refunded_minor: number;
    paid: string; paid_minor: number; to_pay: string; to_pay_minor: number;
    status_url: string;
  };
  payment: {
    amount: string; amount_minor: number; currency: string; method: string; status: string; due_date: string; due: string;
    paid_at: string; paid_on: string;
  };
  stay: { start: string; end: string; arrival: string; departure: string; nights: number; rent_period: string };
  product: { id: string; name: string; description: string; address: string; timezone: string };
  organization: { name: string };
  line_items: { name: string; quantity: number; amount: string; amount_minor: number; fee_type: string; item_type: string }[];
  details: { name: string; value: string }[];
}

/** The language a MultiLanguageString is read in for this booking. */
export function guestLanguage(record: BookingRecord): string {
  return record.contact?.language || record.booking.language || record.organization.language || 'en';
}

/** `text` in `language` by the one rule of src/common/languages.ts (`nl` finds `nl-NL` and back, then `default`). */
export function localized(text: MultiLanguageString | undefined, language: string): string {
  return localizedText(text, language);
}

export function formatMoney(minor: number, currency: string, language: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  try {
    return new Intl.NumberFormat(language, { style: 'currency', currency }).format(minor / 10 ** digits);
  } catch {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
  }
}

/** A calendar date written out in the guest's language, e.g. "Saturday 27 March 2027". */
function longDate(date: string, language: string): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' };
  const at = new Date(`${date}T00:00:00Z`);
  try {
    return new Intl.DateTimeFormat(language, options).format(at);
  } catch {
    return new Intl.DateTimeFormat('en', options).format(at);
  }
}

/** The day an instant falls on in `timeZone`, written out like `longDate`. */
function longDay(instant: string, timeZone: string, language: string): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
  return longDate(day, language);
}

const DAY_MS = 86_400_000;

/** A payment still to pay: pending, or a failed or expired attempt (docs/payments.md). */
export const isPaymentOpen = (payment: Pick<BookingPayment, 'status'>): boolean => ['pending', 'failed', 'expired'].includes(payment.status);

/** The payment a message is about: the job's, else the next one still to pay (payments come earliest due first). */
function focusPayment(record: BookingRecord): BookingPayment | undefined {
  return record.payment_id ? record.payments.find((payment) => payment.id === record.payment_id) : record.payments.find(isPaymentOpen);
}

/**
 * The payment a preview shows, without a job to name one: a receipt's (`payment_received`) is the payment paid last;
 * any other template's is the next one still to pay (undefined: `focusPayment` finds it).
 */
export function previewedPaymentId(record: BookingRecord, trigger: string | null | undefined): string | undefined {
  if (trigger !== 'payment_received') return undefined;
  const paid = record.payments.filter((payment) => payment.paid_at !== null && payment.status === 'paid');
  return paid.sort((a, b) => Date.parse(a.paid_at!) - Date.parse(b.paid_at!)).at(-1)?.id;
}

function paymentVariables(record: BookingRecord, language: string, money: (minor: number) => string): TemplateVariables['payment'] {
  const payment = focusPayment(record);
  if (!payment) return { amount: '', amount_minor: 0, currency: '', method: '', status: '', due_date: '', due: '', paid_at: '', paid_on: '' };
  const words = messageLabels(language);
  return {
    amount: money(payment.amount),
    amount_minor: payment.amount,
    currency: payment.currency,
    method: words(payment.method as keyof MessageLabels),
    status: payment.status,
    due_date: payment.due_date ?? '',
    due: payment.due_date ? longDate(payment.due_date, language) : '',
    paid_at: payment.paid_at ?? '',
    paid_on: payment.paid_at ? longDay(payment.paid_at, record.product.timezone, language) : '',
  };
}

/** The guest's booking page: `<public URL>/g/<secret>` (src/guest; the secret is the guest's credential). */
export function bookingStatusUrl(publicUrl: string, secret: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/g/${encodeURIComponent(secret)}`;
}

/**
 * The unit's address as the guest may see it: the exact one, except while `hide_exact_address` hides it until the
 * booking is confirmed (then, or without an exact address, the approximate one). The guest page applies the same rule.
 */
export function guestVisibleAddress(record: Pick<BookingRecord, 'product' | 'event'>): string {
  const { product, event } = record;
  const hidden = product.hide_exact_address && event.status !== 'CONFIRMED';
  return hidden || !product.exact_address ? product.approximate_address : product.exact_address;
}

export function templateVariables(record: BookingRecord, publicUrl: string): TemplateVariables {
  const language = guestLanguage(record);
  const { booking, event, product, contact } = record;
  const money = (minor: number) => formatMoney(minor, booking.currency, language);
  const fees = record.line_items.filter((item) => item.fee_type === 'fee').reduce((sum, item) => sum + item.amount, 0);
  const deposit = record.line_items.filter((item) => item.fee_type === 'deposit').reduce((sum, item) => sum + item.amount, 0);
  const paid = record.payments.filter((payment) => payment.status === 'paid').reduce((sum, payment) => sum + payment.amount, 0);
  const toPay = record.payments.filter(isPaymentOpen).reduce((sum, payment) => sum + payment.amount, 0);
  // Calendar events store the first free date; a daily stay's last day is the day before it.
  const lastDay = product.rent_period === 'daily'
    ? new Date(Date.parse(`${event.end_date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10)
    : event.end_date;
  const nights = Math.round((Date.parse(`${event.end_date}T00:00:00Z`) - Date.parse(`${event.start_date}T00:00:00Z`)) / DAY_MS);
  const firstName = contact?.first_name ?? '';
  const lastName = contact?.last_name ?? '';
  return {
    guest: {
      first_name: firstName,
      last_name: lastName,
      name: [firstName, lastName].filter(Boolean).join(' '),
      email: contact?.email ?? '',
      phone: contact?.phone ?? '',
      language,
    },
    booking: {
      id: booking.id,
      reference: booking.reference,
      status: event.status,
      created_at: booking.created_at,
      confirmed_at: booking.confirmed_at ?? '',
      language: booking.language,
      currency: booking.currency,
      total: money(fees),
      total_minor: fees,
      deposit: money(deposit),
      deposit_minor: deposit,
      refunded: money(booking.refunded),
      refunded_minor: booking.refunded,
      paid: money(paid),
      paid_minor: paid,
      to_pay: money(toPay),
      to_pay_minor: toPay,
      guests: guestCount(booking.occupancy, record.accumulators.map((id) => ({ id, name: null, accumulator: true }))),
      status_url: bookingStatusUrl(publicUrl, booking.secret),
    },
    payment: paymentVariables(record, language, money),
    stay: {
      start: event.start_date,
      end: lastDay,
      arrival: longDate(event.start_date, language),
      departure: longDate(lastDay, language),
      nights,
      rent_period: product.rent_period,
    },
    product: {
      id: product.id,
      name: localized(product.name, language),
      description: localized(product.description, language),
      address: guestVisibleAddress(record),
      timezone: product.timezone,
    },
    organization: { name: record.organization.name },
    line_items: record.line_items.map((item) => ({
      name: localized(item.name, language),
      quantity: item.quantity,
      amount: money(item.amount),
      amount_minor: item.amount,
      fee_type: item.fee_type,
      item_type: item.item_type,
    })),
    details: record.details.map((detail) => ({ name: localized(detail.name, language), value: detail.value ?? '' })),
  };
}

/** A booking with every field filled in: what templates are checked against when they are saved, and previews. */
export const SAMPLE_RECORD: BookingRecord = {
  booking: {
    id: '00000000-0000-4000-8000-000000000001', reference: 'K7M-4QX2', secret: 'sample-secret-0000000000000000000',
    created_at: '2027-03-01T10:00:00Z', confirmed_at: '2027-03-01T10:00:00Z', currency: 'EUR', language: 'en',
    occupancy: { '00000000-0000-4000-8000-000000000002': 2 }, silent: false, refunded: 5000,
  },
  event: { id: '00000000-0000-4000-8000-000000000003', start_date: '2027-06-10', end_date: '2027-06-14', status: 'CONFIRMED', padding: 0 },
  product: {
    id: '00000000-0000-4000-8000-000000000004', name: { default: 'Dune House' }, description: { default: 'By the sea' },
    approximate_address: 'Zandvoort', exact_address: 'Strandweg 1, Zandvoort', hide_exact_address: false,
    rent_period: 'nightly', timezone: 'Europe/Amsterdam', currency: 'EUR', latest_arrival_time: null,
  },
  organization: { id: '00000000-0000-4000-8000-000000000005', name: 'Seaside Rentals', language: 'en', brand_color: null },
  contact: {
    id: '00000000-0000-4000-8000-000000000006', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com',
    phone: '+31 20 123 4567', language: 'en',
  },
  line_items: [{ name: { default: 'Rent' }, quantity: 4, amount: 40000, fee_type: 'fee', item_type: 'rent' }],
  details: [{ name: { default: 'Arrival time' }, value: '15:00' }],
  reply_to: null,
  accumulators: [],
  payments: [
    { id: '00000000-0000-4000-8000-000000000007', amount: 12000, currency: 'EUR', status: 'paid', method: 'bank_transfer',
      due_date: '2027-03-01', paid_at: '2027-03-02T09:30:00Z' },
    { id: '00000000-0000-4000-8000-000000000008', amount: 28000, currency: 'EUR', status: 'pending', method: 'other',
      due_date: '2027-05-27', paid_at: null },
  ],
};

/** Every variable path of `value` (`guest.first_name`, `line_items[].amount`, …). */
function variablePaths(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return variablePaths(value[0], `${prefix}[]`);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => variablePaths(inner, prefix ? `${prefix}.${key}` : key));
  }
  return [prefix];
}

/**
 * Every variable a template may use, in the order `TemplateVariables` gives them: what docs/automations.md lists (a
 * test checks it) and what the dashboard's template editor offers to insert (it imports this list; pure, no Node.js).
 */
export const TEMPLATE_VARIABLE_PATHS: readonly string[] = variablePaths(templateVariables(SAMPLE_RECORD, 'https://example.com'));
