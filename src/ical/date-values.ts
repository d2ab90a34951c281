/**
 * RFC 5545 DATE and DATE-TIME values as written in a feed, checked before ical.js reads them: ical.js normalises
 * what it reads, so `20270230` would silently become March 2 and `T250000` the next day. A value that is not a real
 * calendar date and wall-clock time must fail the feed instead.
 */

/** Properties whose value is a list of DATE / DATE-TIME (or, for RDATE, PERIOD) values. */
const DATE_LIST_PROPERTIES = new Set(['DTSTART', 'DTEND', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);
/** Properties whose value is a recurrence rule that may carry `UNTIL=<date>`. */
const RULE_PROPERTIES = new Set(['RRULE', 'EXRULE']);

const DATE_OR_DATE_TIME = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/;

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** True for `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]` naming a real date and time (second 60: a leap second). */
export function isDateValue(value: string): boolean {
  const match = DATE_OR_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (match[4] === undefined) return true;
  return Number(match[4]) <= 23 && Number(match[5]) <= 59 && Number(match[6]) <= 60;
}

/** A PERIOD is `start/end` or `start/duration`; only its date parts are judged here. */
function isDateOrPeriod(item: string): boolean {
  const [start, end, ...rest] = item.split('/');
  if (rest.length > 0 || !isDateValue(start!)) return false;
  return end === undefined || /^[+-]?P/.test(end) || isDateValue(end);
}

/** Name and value of an unfolded content line (the value starts after the first colon outside quotes). */
function splitLine(line: string): { name: string; value: string } | undefined {
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i];
    if (char === '"') quoted = !quoted;
    else if (char === ':' && !quoted) {
      return { name: line.slice(0, i).split(';')[0]!.trim().toUpperCase(), value: line.slice(i + 1).trim() };
    }
  }
  return undefined;
}

/** Why a content line's date value is invalid, or undefined when it is fine (or holds no date). */
export function invalidDateInLine(line: string): string | undefined {
  const parsed = splitLine(line);
  if (!parsed) return undefined;
  const { name, value } = parsed;
  if (DATE_LIST_PROPERTIES.has(name)) {
    const bad = value.split(',').find((item) => !isDateOrPeriod(item.trim()));
    return bad === undefined ? undefined : `${name} has an invalid date "${bad.slice(0, 40)}"`;
  }
  if (RULE_PROPERTIES.has(name)) {
    const until = /(?:^|;)UNTIL=([^;]*)/i.exec(value)?.[1];
    return until === undefined || isDateValue(until) ? undefined : `${name} has an invalid UNTIL "${until.slice(0, 40)}"`;
  }
  return undefined;
}
