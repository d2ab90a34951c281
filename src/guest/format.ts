/** Text for people: money in minor units and calendar dates in the guest's language. */

/** The guest's language if Intl knows it, else English. */
export function locale(language: string): string {
  try {
    return Intl.getCanonicalLocales(language)[0] ?? 'en';
  } catch {
    return 'en';
  }
}

export function money(amount: number, currency: string, language: string): string {
  const format = new Intl.NumberFormat(locale(language), { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}

/** The day `timestamp` falls on in `timeZone`, written out in the guest's language. */
export function momentDate(timestamp: string, timeZone: string, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'full', timeZone }).format(new Date(timestamp));
}

export function calendarDate(date: string, language: string): string {
  return new Intl.DateTimeFormat(locale(language), { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}
