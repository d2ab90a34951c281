/**
 * The guest's booking page as HTML: the unit's cover photo, the stay, the unit, the guests, the price lines and total, the payments (what
 * is paid and what is due), the issued invoices, "add to calendar", and the cancellation request when allowed.
 * Pure: the caller loads the booking. Every value from the database is escaped.
 */
import { localize } from '../booking/model.js';
import { addDays } from '../common/dates.js';
import { guestCount, guestGroups } from '../common/guests.js';
import { escapeHtml as e } from '../common/html.js';
import { calendarDate, momentDate, money } from './format.js';
import { guestTranslator, type GuestTranslate } from './labels.js';
import type { GuestBooking } from './queries.js';
import { coverPicture } from '../media/cover.js';

export interface GuestPageContext {
  /** The page's own path (`/g/<secret>`), for the calendar link and the form. */
  path: string;
  cancellationAllowed: boolean;
  /** Set right after the guest sent a cancellation request. */
  justRequested: boolean;
}

type Words = ReturnType<typeof guestTranslator>;

function stayRows(booking: GuestBooking, t: GuestTranslate): string {
  const { product, start_date: start, end_date: end } = booking;
  if (!product || !start || !end) return '';
  const language = booking.language;
  const lastDay = product.rent_period === 'daily' ? addDays(end, -1) : end;
  const rows = [
    [t('unit'), e(localize(product.name, language))],
    [t(product.rent_period === 'daily' ? 'firstDay' : 'checkIn'), e(calendarDate(start, language))],
    [t(product.rent_period === 'daily' ? 'lastDay' : 'checkout'), e(calendarDate(lastDay, language))],
  ];
  if (product.address) rows.push([t('address'), e(product.address)]);
  if (product.latest_arrival_time) rows.push([t('latestArrival'), e(product.latest_arrival_time.slice(0, 5))]);
  const kinds = guestGroups(booking.occupancy, booking.groups).map(({ group, count }) => `${count} × ${e(localize(group.name, language))}`);
  if (kinds.length > 0) rows.push([t('guests'), `${guestCount(booking.occupancy, booking.groups)} (${kinds.join(', ')})`]);
  return rows.map(([label, value]) => `<dt>${e(label!)}</dt><dd>${value}</dd>`).join('');
}

function priceTable(booking: GuestBooking, t: GuestTranslate): string {
  const fees = booking.line_items.filter((item) => item.fee_type === 'fee');
  if (fees.length === 0) return '';
  const total = fees.reduce((sum, item) => sum + item.amount, 0);
  const deposits = booking.line_items.filter((item) => item.fee_type === 'deposit');
  const row = (item: GuestBooking['line_items'][number]) =>
    `<tr><td>${e(localize(item.name, booking.language))}</td><td class="n">${item.quantity}</td><td class="n">${e(money(item.amount, booking.currency, booking.language))}</td></tr>`;
  return `<h2>${e(t('price'))}</h2><table><caption>${e(t('priceCaption'))}</caption>
<thead><tr><th scope="col">${e(t('item'))}</th><th scope="col" class="n">${e(t('quantity'))}</th><th scope="col" class="n">${e(t('amount'))}</th></tr></thead>
<tbody>${fees.map(row).join('')}</tbody>
<tfoot><tr><th scope="row" colspan="2">${e(t('total'))}</th><td class="n" data-total>${e(money(total, booking.currency, booking.language))}</td></tr>
${deposits.map((item) => `<tr><th scope="row" colspan="2">${e(t('deposit', { name: localize(item.name, booking.language) }))}</th><td class="n">${e(money(item.amount, booking.currency, booking.language))}</td></tr>`).join('')}</tfoot></table>`;
}

function paymentsSection(booking: GuestBooking, { t, status }: Words): string {
  if (booking.payments.length === 0) return '';
  // Moments are shown as the day they fall on in the unit's time zone (a payment due at midnight in Amsterdam is due
  // that day, not the day before as in UTC), written out in the guest's language like the stay's dates.
  const day = (moment: string) => momentDate(moment, booking.product?.timezone ?? 'UTC', booking.language);
  const paid = booking.payments.filter((p) => p.status === 'paid').reduce((sum, p) => sum + p.amount, 0);
  const rows = booking.payments.map((p) => {
    const when = p.paid_at ? t('paidOn', { date: day(p.paid_at) }) : p.due_at ? t('dueOn', { date: day(p.due_at) }) : '';
    return `<li>${e(money(p.amount, p.currency, booking.language))} — ${e(status(p.status))}${when ? `, ${e(when)}` : ''}</li>`;
  });
  const refunds = booking.refunds.map((r) => `<li>${e(r.status === 'refunded' && r.refunded_at
    ? t('refundDone', { amount: money(r.amount, r.currency, booking.language), date: day(r.refunded_at) })
    : t('refundPending', { amount: money(r.amount, r.currency, booking.language) }))}</li>`);
  const refunded = refunds.length > 0 ? `<h3>${e(t('refunds'))}</h3><ul data-refunds>${refunds.join('')}</ul>` : '';
  return `<h2>${e(t('payments'))}</h2><p>${e(t('paidSoFar'))} <strong data-paid>${e(money(paid, booking.currency, booking.language))}</strong></p><ul>${rows.join('')}</ul>${refunded}`;
}

function invoicesSection(booking: GuestBooking, path: string, { t, status }: Words): string {
  if (booking.invoices.length === 0) return '';
  const rows = booking.invoices.map((i) =>
    `<li><a href="${e(path)}/invoices/${e(i.id)}.pdf">${e(t('invoice', { number: i.number }))}</a>: ${e(money(i.total, i.currency, booking.language))} (${e(status(i.status))})</li>`);
  return `<h2>${e(t('invoices'))}</h2><ul>${rows.join('')}</ul>`;
}

function cancellationSection(booking: GuestBooking, context: GuestPageContext, t: GuestTranslate): string {
  if (context.justRequested || booking.cancellation_requested) {
    return `<h2>${e(t('cancellation'))}</h2><p role="status">${e(t('cancellationSent'))}</p>`;
  }
  if (!context.cancellationAllowed) return '';
  return `<h2>${e(t('cancellation'))}</h2><form method="post" action="${e(context.path)}/cancellation-request">
<label for="reason">${e(t('cancellationReason'))}</label>
<textarea id="reason" name="reason" rows="3" maxlength="2000"></textarea>
<button type="submit">${e(t('requestCancellation'))}</button></form>`;
}

export function guestPage(booking: GuestBooking, context: GuestPageContext): string {
  const words = guestTranslator(booking.language);
  const { t } = words;
  const status = booking.status ? words.status(booking.status) : '';
  const calendarLink = booking.start_date && booking.status !== 'CANCELLED'
    ? `<p><a href="${e(context.path)}/calendar.ics" download="booking-${e(booking.reference)}.ics">${e(t('addToCalendar'))}</a></p>` : '';
  return `<!doctype html>
<html lang="${e(booking.language)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${e(t('booking', { reference: booking.reference }))}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:#111827;background:#fff;margin:0}
main{max-width:40rem;margin:0 auto;padding:1rem}main>picture img{display:block;width:100%;height:auto;border-radius:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
table{width:100%;border-collapse:collapse}caption{text-align:left;color:#374151}td,th{padding:.25rem;border-bottom:1px solid #d1d5db;text-align:left}.n{text-align:right}
textarea{display:block;width:100%;box-sizing:border-box;margin:.25rem 0}button{font:inherit;padding:.5rem 1rem;background:#1d4ed8;color:#fff;border:0;border-radius:.25rem}
a{color:#1d4ed8}@media (max-width:30rem){dl{grid-template-columns:1fr}}
</style></head>
<body><main>
${booking.product?.cover ? coverPicture(booking.product.cover, booking.language) : ''}
<h1>${e(t('booking', { reference: booking.reference }))}</h1>
<p data-status>${e(status)}</p>
<dl>${stayRows(booking, t)}</dl>
${calendarLink}${priceTable(booking, t)}${paymentsSection(booking, words)}${invoicesSection(booking, context.path, words)}${cancellationSection(booking, context, t)}
</main></body></html>`;
}
