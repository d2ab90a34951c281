/**
 * ical.js expands some rules into dates the rule does not allow: a day the rule names but a month lacks
 * (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`) is rolled over into the next month (March 2) instead of being skipped as
 * RFC 5545 requires. Such an occurrence is not what the feed means, so it fails the feed.
 */
import ICAL from 'ical.js';
import { daysInMonth } from './date-values.js';

interface RuleDays {
  months: readonly number[] | undefined;
  monthDays: readonly number[] | undefined;
}

function allows(rule: RuleDays, time: ICAL.Time): boolean {
  if (rule.months && !rule.months.includes(time.month)) return false;
  if (!rule.monthDays) return true;
  const length = daysInMonth(time.year, time.month);
  return rule.monthDays.some((day) => (day > 0 ? day : length + day + 1) === time.day);
}

/**
 * For an event with RRULEs that restrict months or days of the month: a function telling why an occurrence breaks
 * them (undefined when it does not). DTSTART and RDATE occurrences are the feed's own dates and always allowed.
 */
export function occurrenceChecker(event: ICAL.Event): ((occurrence: ICAL.Time) => string | undefined) | undefined {
  const rules = event.component.getAllProperties('rrule').map((property) => {
    const recur = property.getFirstValue() as ICAL.Recur;
    return { text: recur.toString(), months: recur.parts.BYMONTH, monthDays: recur.parts.BYMONTHDAY };
  });
  if (!rules.some((rule) => rule.months || rule.monthDays)) return undefined;
  const own = new Set([
    event.startDate.toString(),
    ...event.component.getAllProperties('rdate').flatMap((property) =>
      property.getValues().map((value: unknown) => (value instanceof ICAL.Period ? value.start : value) as ICAL.Time)
        .map((time) => time.toString())),
  ]);
  return (occurrence) => {
    if (own.has(occurrence.toString()) || rules.some((rule) => allows(rule, occurrence))) return undefined;
    return `its recurrence (${rules.map((rule) => rule.text).join(' / ')}) produced ${occurrence.toString()}, a date the rule does not allow`;
  };
}
