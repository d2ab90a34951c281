/**
 * The availability statement's row (availability-queries.ts) as timeline.ts reads it: its `ranges` column is, per
 * label the request gave the categories (the categories themselves, or the statuses they show as), the label and
 * the date multirange of its dates in PostgreSQL's text form, one after the other:
 * `available{[2027-03-01,2027-03-05),[2027-03-09,2027-03-10)}unavailable{[2027-03-05,2027-03-09)}`. The timeline
 * wants one list of `[start, end, label]` in date order.
 */
import type { ProductTimeline } from './timeline.js';

export type AvailabilityRow = Omit<ProductTimeline, 'categories'> & { ranges: string };

/**
 * The labelled ranges of a row's `ranges`, in date order. daterange is canonical (`[start, end)`) and never unbounded
 * here; read by position, as this runs for every range of every unit (no match objects). The labels are the ones
 * the statement was given (`L`), never text of the caller's.
 */
export function toLabelledRanges<L extends string>(text: string): [start: string, end: string, label: L][] {
  const ranges: [string, string, L][] = [];
  let labelStart = 0;
  while (labelStart < text.length) {
    const brace = text.indexOf('{', labelStart);
    const label = text.slice(labelStart, brace) as L;
    const closeBrace = text.indexOf('}', brace);
    let open = text.indexOf('[', brace);
    while (open !== -1 && open < closeBrace) {
      const comma = text.indexOf(',', open);
      const close = text.indexOf(')', comma);
      ranges.push([text.slice(open + 1, comma), text.slice(comma + 1, close), label]);
      open = text.indexOf('[', close);
    }
    labelStart = closeBrace + 1;
  }
  // The labels' dates are disjoint: ordering by start orders them by date.
  ranges.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return ranges;
}
