/**
 * Dates, numbers and money as the reader writes them: the locale is the language they read the dashboard in, with the
 * organization's region (readerLocale), while moments (timestamps) are told in the organization's time zone and money
 * is in its currency. Calendar dates (`YYYY-MM-DD`: stays, blocks) are days in the unit's own calendar and are shown
 * as they are, never shifted by a time zone.
 */
import { localizedText } from '../../../../src/common/languages.js';

export interface FormatSettings {
  /** The reader's locale (readerLocale). */
  locale: string;
  /** The organization's time zone and default currency. */
  timeZone: string;
  currency: string;
}

export interface Formatter {
  locale: string;
  timeZone: string;
  /** A calendar date, e.g. "3 Nov 2026". */
  date(isoDate: string): string;
  /** A short day label for the timeline header, e.g. "Tu 3". */
  weekdayDay(isoDate: string): { weekday: string; day: string };
  month(isoDate: string): string;
  /** A moment in the organization's time zone. */
  moment(timestamp: string | null): string;
  /** Minor units of `currency`, e.g. 14500 EUR → "€145.00". */
  money(minor: number, currency?: string): string;
  /** Today in the organization's time zone, `YYYY-MM-DD`. */
  today(): string;
  /** The calendar date of a moment in the organization's time zone, `YYYY-MM-DD`. */
  dayOf(timestamp: string): string;
  /**
   * Noon of a calendar date in the organization's time zone, as an ISO timestamp: the moment that stands for a day
   * (a payment received that day), on that same day in every time zone within 11 hours of the organization's.
   */
  noonOn(isoDate: string): string;
}

const asUtc = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`);

export function formatterFor({ locale, timeZone, currency: defaultCurrency }: FormatSettings): Formatter {
  const dateFormat = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const weekday = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const day = new Intl.DateTimeFormat(locale, { day: 'numeric', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const moment = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });
  const isoInZone = new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', timeZone });
  const wallClock = new Intl.DateTimeFormat('en-CA', {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone,
  });
  /** The organization's wall clock at `instant`, read as if it were UTC (milliseconds). */
  const wallClockMs = (instant: number) => {
    const part = Object.fromEntries(wallClock.formatToParts(instant).map(({ type, value }) => [type, value]));
    return Date.parse(`${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}Z`);
  };
  const money = new Map<string, Intl.NumberFormat>();
  const moneyFormat = (currency: string) => {
    let format = money.get(currency);
    if (!format) money.set(currency, (format = new Intl.NumberFormat(locale, { style: 'currency', currency })));
    return format;
  };
  return {
    locale,
    timeZone,
    date: (isoDate) => dateFormat.format(asUtc(isoDate)),
    weekdayDay: (isoDate) => ({ weekday: weekday.format(asUtc(isoDate)), day: day.format(asUtc(isoDate)) }),
    month: (isoDate) => month.format(asUtc(isoDate)),
    moment: (timestamp) => (timestamp ? moment.format(new Date(timestamp)) : '—'),
    money: (minor, currency = defaultCurrency) => {
      const format = moneyFormat(currency);
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      return format.format(minor / 10 ** digits);
    },
    today: () => isoInZone.format(new Date()),
    dayOf: (timestamp) => isoInZone.format(new Date(timestamp)),
    noonOn: (isoDate) => {
      // Noon UTC shifted by the zone's offset at that moment (no zone changes its offset around noon).
      const noonUtc = Date.parse(`${isoDate}T12:00:00Z`);
      return new Date(noonUtc - (wallClockMs(noonUtc) - noonUtc)).toISOString();
    },
  };
}

/**
 * The locale a reader's dates and numbers are written in: the language they read the dashboard in, in the region of
 * the organization's language when it names one — a Dutch organization (`nl-NL`) read in English writes
 * "3 Dec 2026" (`en-NL`), not the American "Dec 3, 2026". Just the reader's language when the organization's
 * language names no region or cannot be read.
 */
export function readerLocale(language: string, organizationLanguage: string | null | undefined): string {
  try {
    const region = organizationLanguage ? new Intl.Locale(organizationLanguage).region : undefined;
    return new Intl.Locale(language, region ? { region } : {}).toString();
  } catch {
    return language;
  }
}

/** The name of a localized text (MultiLanguageString) in the reader's language, else the text's default. */
export function localized(text: Record<string, string> | string | null | undefined, locale: string): string {
  if (text == null) return '';
  if (typeof text === 'string') return text;
  return localizedText(text, locale);
}
