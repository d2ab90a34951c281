/**
 * Calendar arithmetic for the iCal import and export: `YYYY-MM-DD` strings, wall-clock times in a named IANA time
 * zone, and the conversion of a timed feed event to the dates of a unit. Pure functions on top of `Intl`.
 */

/**
 * The dates Staykit stores (the database refuses others, as the booking flow does): `first` … `last`, and an
 * exclusive end date up to `endLimit`.
 */
export const SUPPORTED_DATES = { first: '1900-01-01', last: '2199-12-31', endLimit: '2200-01-01' } as const;

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** True when `name` is a time zone `Intl` knows (IANA names, plus `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time in `timeZone` at the instant `epochMs`. */
export function wallTimeAt(epochMs: number, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
}

/** The instant at which the clocks of `timeZone` show `wall` (the earlier one in a DST overlap). */
export function instantOfWallTime(wall: WallTime, timeZone: string): number {
  const guess = wallAsUtc(wall);
  const offset1 = wallAsUtc(wallTimeAt(guess, timeZone)) - guess;
  const candidate = guess - offset1;
  const offset2 = wallAsUtc(wallTimeAt(candidate, timeZone)) - candidate;
  return offset1 === offset2 ? candidate : guess - Math.max(offset1, offset2);
}

/** `wall` moved by `minutes` (plain arithmetic on the clock, no time zone). */
export function addMinutes(wall: WallTime, minutes: number): WallTime {
  const moved = new Date(wallAsUtc(wall) + minutes * 60_000);
  return {
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
    hour: moved.getUTCHours(),
    minute: moved.getUTCMinutes(),
    second: moved.getUTCSeconds(),
  };
}

export function dateOf(wall: Pick<WallTime, 'year' | 'month' | 'day'>): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}`;
}

