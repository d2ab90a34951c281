/**
 * How column values come back to TypeScript, the same on both backends: dates and times stay the text Postgres
 * printed (no time-zone surprises from JS Date), 64-bit integers become numbers (counts), JSON is parsed.
 */
export const TEXT_TYPE_OIDS = {
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
} as const;

export const INT8_OID = 20;

export const identity = (value: string): string => value;
export const toNumber = (value: string): number => Number(value);
