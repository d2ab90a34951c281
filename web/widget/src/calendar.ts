/**
 * The month calendar: a grid of day buttons (WAI-ARIA grid pattern) showing which days are available, which allow
 * check-in or checkout, and the "from" price of each night. One day button is in the tab order; the arrow keys,
 * Home/End and Page Up/Down move between days and months; Enter or Space picks the check-in, then the checkout.
 */
import { addDays, esc, formatDate, formatMonth, money, monthOf, shiftMonth, weekday, weekdayNames } from './format.js';
import type { Translate } from './i18n.js';
import type { Day } from './types.js';

export interface Selection {
  start: string | null;
  end: string | null;
}

export interface CalendarModel {
  days: ReadonlyMap<string, Day>;
  month: string;
  focused: string;
  selection: Selection;
  currency: string;
  language: string;
  rentPeriod: 'daily' | 'nightly';
  t: Translate;
}

/** Whether every day a stay from `start` to `end` occupies is available. */
function free(days: ReadonlyMap<string, Day>, start: string, end: string, rentPeriod: 'daily' | 'nightly'): boolean {
  const last = rentPeriod === 'nightly' ? addDays(end, -1) : end;
  for (let date = start; date <= last; date = addDays(date, 1)) if (days.get(date)?.status !== 'available') return false;
  return true;
}

/** Whether `date` ends a valid stay from the picked check-in: a checkout day, the stay's length allowed, every day free. */
export function endsStay(model: Pick<CalendarModel, 'days' | 'selection' | 'rentPeriod'>, date: string): boolean {
  const { start, end } = model.selection;
  const day = model.days.get(date);
  if (start === null || end !== null || date <= start || !day?.checkout) return false;
  const first = model.days.get(start)!;
  const length = Math.round((Date.parse(date) - Date.parse(start)) / 86_400_000) + (model.rentPeriod === 'daily' ? 1 : 0);
  const fits = (first.min_duration ?? 0) <= length && (!first.max_duration || length <= first.max_duration);
  return fits && free(model.days, start, date, model.rentPeriod);
}

/** Whether `date` can be picked now: as the checkout of the picked check-in, or as a (new) check-in. */
export function selectable(model: Pick<CalendarModel, 'days' | 'selection' | 'rentPeriod'>, date: string): boolean {
  const day = model.days.get(date);
  return endsStay(model, date) || (day !== undefined && day.check_in && day.status === 'available');
}

function dayLabel(model: CalendarModel, date: string, day: Day | undefined): string {
  const { t } = model;
  const parts = [formatDate(date, model.language)];
  if (date === model.selection.start) parts.push(t('checkIn'));
  if (date === model.selection.end) parts.push(t('checkout'));
  parts.push(day?.status === 'available' ? t('available') : t('unavailable'));
  if (day?.check_in && day.status === 'available') parts.push(t('checkInDay'));
  if (day?.checkout) parts.push(t('checkoutDay'));
  if (day?.rate != null && day.status === 'available') parts.push(`${t('from')} ${money(day.rate, model.currency, model.language)}`);
  return parts.join(', ');
}

function inRange(selection: Selection, date: string): boolean {
  return selection.start !== null && selection.end !== null && date > selection.start && date < selection.end;
}

export function renderCalendar(model: CalendarModel): string {
  const { month, t } = model;
  const first = `${month}-01`;
  const lead = weekday(first);
  const last = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const short = weekdayNames(model.language, 'short');
  const long = weekdayNames(model.language, 'long');
  const cells: string[] = Array.from({ length: lead }, () => '<td role="gridcell"></td>');
  for (let date = first; date <= last; date = addDays(date, 1)) {
    const day = model.days.get(date);
    const classes = [
      day?.status === 'available' ? 'available' : 'unavailable',
      day?.check_in && day.status === 'available' ? 'check-in' : '',
      day?.checkout ? 'checkout' : '',
      date === model.selection.start || date === model.selection.end ? 'selected' : '',
      inRange(model.selection, date) ? 'in-range' : '',
    ].filter(Boolean).join(' ');
    const pickable = selectable(model, date);
    const price = day?.rate != null && day.status === 'available' ? `<span class="rate" aria-hidden="true">${esc(money(day.rate, model.currency, model.language, true))}</span>` : '';
    const selected = date === model.selection.start || date === model.selection.end || inRange(model.selection, date);
    // The price is drawn over the button but is not its content: the button's visible text (the day) stays part of
    // its accessible name, which says the date, the status and the price in words.
    cells.push(`<td role="gridcell" aria-selected="${selected}"><button type="button" class="${classes}" data-date="${date}" tabindex="${date === model.focused ? 0 : -1}"`
      + ` aria-label="${esc(dayLabel(model, date, day))}"${pickable ? '' : ' aria-disabled="true"'}>${Number(date.slice(8))}</button>${price}</td>`);
  }
  while (cells.length % 7 !== 0) cells.push('<td role="gridcell"></td>');
  const rows = [];
  for (let i = 0; i < cells.length; i += 7) rows.push(`<tr>${cells.slice(i, i + 7).join('')}</tr>`);
  return `<div class="month-nav">
<button type="button" class="prev" aria-label="${esc(t('previousMonth'))}">‹</button>
<h3 id="month-label" aria-live="polite">${esc(formatMonth(month, model.language))}</h3>
<button type="button" class="next" aria-label="${esc(t('nextMonth'))}">›</button></div>
<table role="grid" aria-labelledby="month-label"><thead><tr>${short.map((name, i) => `<th scope="col" abbr="${esc(long[i]!)}">${esc(name)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('')}</tbody></table>`;
}

/** The day focus moves to for a key, or undefined for keys the grid does not handle. */
export function moveFocus(date: string, key: string): string | undefined {
  switch (key) {
    case 'ArrowLeft': return addDays(date, -1);
    case 'ArrowRight': return addDays(date, 1);
    case 'ArrowUp': return addDays(date, -7);
    case 'ArrowDown': return addDays(date, 7);
    case 'Home': return addDays(date, -weekday(date));
    case 'End': return addDays(date, 6 - weekday(date));
    case 'PageUp': return clampToMonth(date, shiftMonth(monthOf(date), -1));
    case 'PageDown': return clampToMonth(date, shiftMonth(monthOf(date), 1));
    default: return undefined;
  }
}

function clampToMonth(date: string, month: string): string {
  const last = addDays(`${shiftMonth(month, 1)}-01`, -1);
  const candidate = `${month}-${date.slice(8)}`;
  return candidate > last || Number.isNaN(Date.parse(candidate)) ? last : candidate;
}
