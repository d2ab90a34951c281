/**
 * POST /v1/search: every product of the organization against an optional stay, occupancy and attribute options.
 * Per product: whether it matches, why not (occupancy, options, availability), and its price — the full price of
 * the stay (rent, adjustments, mandatory fees and taxes; no coupons or optional extras) when an interval is given,
 * else the lowest and highest nightly rate for the occupancy. A fixed number of statements whatever the number
 * of products.
 */
import type { Queryable } from '../db/types.js';
import { addDays, todayIn } from '../common/dates.js';
import { toShowOptions, type ShowOptions } from './show-options.js';
import { checkInterval, toOccupancy, type Interval } from './input.js';
import type { SearchBody } from './request-schemas.js';
import type { SearchResult } from './answer-schemas.js';
import {
  groupBy, type BlockingEvent, type CapacityGroup, type Night, type Product, type Service, type Tax,
} from './model.js';
import { blockingEventsQuery, capacityGroupsQuery, loadNights, run, servicesQuery, taxesQuery } from './queries.js';
import {
  BLOCKED_PERIOD, CLOSED, CONFIRMED_BOOKING, rateRangesQuery, searchUnitsQuery, TENTATIVE_BOOKING, type RateRangeRow,
  type RuledOut, type SearchUnitRow, type StayDates,
} from './search-queries.js';
import { priceStay } from './pricing.js';
import { conflictingEvents, paddingFor, resolveOccupancy, stayRuleViolations, toStay, type Stay } from './rules.js';

export interface SearchInput extends ShowOptions {
  interval: Interval | null;
  occupancy: Record<string, number>;
  optionIds: string[];
}

/** What a product's stay is, by the statuses of the availability timeline. */
type StayStatus = NonNullable<SearchResult['availability']>;

/** The validated body → the search's input (an absent body searches everything). */
export function parseSearchInput(body: SearchBody): SearchInput {
  return {
    interval: body.interval ? checkInterval(body.interval) : null,
    occupancy: toOccupancy(body.occupancy),
    optionIds: (body.option_ids ?? []).map((id) => id.toLowerCase()),
    ...toShowOptions(body),
  };
}

function blockerOf(event: BlockingEvent): number {
  if (event.type !== 'booking') return BLOCKED_PERIOD;
  return event.status === 'TENTATIVE' ? TENTATIVE_BOOKING : CONFIRMED_BOOKING;
}

function stayAvailability(stay: Stay, product: Product, nights: Night[], events: BlockingEvent[], today: string, show: ShowOptions): StayStatus {
  if (nights.some((night) => !night.configuration)) return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
  const conflicts = conflictingEvents(stay, paddingFor(product, nights[0]?.configuration ?? null), events)
    .filter((event) => !(show.showPendingAs === 'CANCELLED' && event.type === 'booking' && event.status === 'TENTATIVE'));
  if (conflicts.length > 0) return conflictAvailability(conflicts.reduce((kinds, event) => kinds | blockerOf(event), 0), show);
  if (stayRuleViolations(product, stay, nights, today).length > 0) return 'unavailable';
  if (product.rent_pricing_definition !== 'services' && nights.some((night) => night.rate === null)) return 'unavailable';
  return 'available';
}

/**
 * What a search reads before it looks at any stay, in one statement: every product with its occupancy and option
 * matches, and the availability index's verdict for the stay of its rent period; plus the guests prices are for.
 */
export interface SearchUnits {
  units: SearchUnitRow[];
  /** The stay of each rent period (null: a zero-night interval cannot be a nightly stay); empty without interval. */
  stays: Map<Product['rent_period'], Stay | null>;
  guests: number;
}

/**
 * The search's units. With `useIndex` false nothing is ruled out and every unit is computed in full (what the
 * availability index must agree with, test/booking/search-index-property.test.ts).
 */
export async function loadSearchUnits(tx: Queryable, input: SearchInput, useIndex = true): Promise<SearchUnits> {
  // Occupancy: unknown groups are a 400 for the whole search (same check as /book), unless the organization has no
  // products (the search answers [] whatever it asks). Without one, prices are for one guest and every product fits.
  let occupancy: Record<string, number> | null = null;
  let guests = 1;
  let occupancyError: unknown = null;
  if (Object.keys(input.occupancy).length > 0) {
    try {
      ({ occupancy, guests } = resolveOccupancy(input.occupancy, await run<CapacityGroup>(tx, capacityGroupsQuery()), []));
    } catch (error) {
      occupancyError = error;
    }
  }
  const stays = new Map<Product['rent_period'], Stay | null>();
  if (input.interval) for (const period of RENT_PERIODS) stays.set(period, stayOf(period, input.interval));
  const indexed = (period: Product['rent_period']): StayDates | null => {
    const stay = useIndex ? stays.get(period) : null;
    return stay ? { start: stay.start, endExclusive: stay.endExclusive, length: stay.length } : null;
  };
  const units = await run<SearchUnitRow>(tx, searchUnitsQuery({
    nightly: indexed('nightly'), daily: indexed('daily'),
    blockerMask: CONFIRMED_BOOKING | BLOCKED_PERIOD | (input.showPendingAs === 'CANCELLED' ? 0 : TENTATIVE_BOOKING),
    occupancy, optionIds: input.optionIds,
  }));
  if (occupancyError !== null && units.length > 0) throw occupancyError;
  return { units, stays, guests };
}

const RENT_PERIODS = ['nightly', 'daily'] as const;

function stayOf(period: Product['rent_period'], interval: Interval): Stay | null {
  try {
    return toStay(period, interval);
  } catch {
    return null; // a zero-night interval cannot be a nightly stay
  }
}

/** The index's verdict on a unit, when it ruled the unit out. */
function ruledOutOf(unit: SearchUnitRow): RuledOut | null {
  return unit.ruled_out === null ? null : { closed: (unit.ruled_out & CLOSED) !== 0, blockers: unit.ruled_out & ~CLOSED };
}

/** The availability of a stay the index ruled out, as stayAvailability would have found it. */
function ruledOutAvailability(row: RuledOut, show: ShowOptions): StayStatus {
  if (row.closed) return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
  return conflictAvailability(row.blockers, show);
}

/** The availability of a stay that meets blocking events of the kinds in `blockers` (after show_pending_as). */
function conflictAvailability(blockers: number, show: ShowOptions): StayStatus {
  const booked = show.showBookedAs === 'booked' ? 'booked' : 'unavailable';
  if (blockers === TENTATIVE_BOOKING) return show.showPendingAs === 'CONFIRMED' ? booked : 'tentative';
  return blockers & (CONFIRMED_BOOKING | TENTATIVE_BOOKING) ? booked : 'unavailable';
}

export async function search(tx: Queryable, input: SearchInput, now: Date): Promise<SearchResult[]> {
  return evaluateSearch(tx, input, now, await loadSearchUnits(tx, input));
}

/** What pricing and the stay rules need for the units left after the index: nights, events, fees and taxes. */
interface LeftUnitsData {
  nights: Map<string, Night[]>;
  events: Map<string, BlockingEvent[]>;
  services: Map<string, Service[]>;
  taxes: Map<string, Tax[]>;
}

/** Nights, events, fee services and taxes of `left` (units with a stay the index did not rule out), for them alone. */
async function loadLeftUnitsData(tx: Queryable, left: SearchUnitRow[], searchUnits: SearchUnits, from: string): Promise<LeftUnitsData> {
  const nights = new Map<string, Night[]>();
  for (const period of RENT_PERIODS) {
    const stay = searchUnits.stays.get(period);
    const ids = left.filter((unit) => unit.rent_period === period).map((unit) => unit.id);
    if (!stay || ids.length === 0) continue;
    for (const [id, list] of await loadNights(tx, ids, stay.start, addDays(stay.endExclusive, -1), stay.length, searchUnits.guests)) {
      nights.set(id, list);
    }
  }
  if (left.length === 0) return { nights, events: new Map(), services: new Map(), taxes: new Map() };
  const ids = left.map((unit) => unit.id);
  // Each unit's events up to the end of the stay plus the cooldown its arrival configuration asks for.
  const untils = left.map((unit) => addDays(searchUnits.stays.get(unit.rent_period)!.endExclusive,
    paddingFor(unit, nights.get(unit.id)?.[0]?.configuration ?? null)));
  return {
    nights,
    events: groupBy(await run<BlockingEvent>(tx, blockingEventsQuery(ids, from, untils))),
    services: groupBy(await run<Service>(tx, servicesQuery(ids))),
    taxes: groupBy(await run<Tax>(tx, taxesQuery(ids))),
  };
}

/**
 * Every product's result. Nights, prices and events are read only for the units the index did not rule out (all
 * of them when `searchUnits` was loaded without the index).
 */
export async function evaluateSearch(tx: Queryable, input: SearchInput, now: Date, searchUnits: SearchUnits): Promise<SearchResult[]> {
  const { units, stays, guests } = searchUnits;
  if (units.length === 0) return [];
  if (!input.interval) {
    const rateRanges = new Map((await run<RateRangeRow>(tx, rateRangesQuery(units.map((unit) => unit.id),
      Object.keys(input.occupancy).length === 0 ? null : guests))).map((row) => [row.product_id, { min: row.min, max: row.max }]));
    return rollUpChildren(units, units.map((unit): SearchResult => ({
      productId: unit.id, match: unit.occupancy_matches && unit.options_match, occupancyMatches: unit.occupancy_matches,
      optionsMatch: unit.options_match, availability: null, price: rateRanges.get(unit.id) ?? null,
    })));
  }
  const left = units.filter((unit) => stays.get(unit.rent_period) && ruledOutOf(unit) === null);
  const data = await loadLeftUnitsData(tx, left, searchUnits, input.interval.start);
  const todays = new Map<string, string>();
  const todayOf = (timeZone: string): string => {
    let today = todays.get(timeZone);
    if (today === undefined) todays.set(timeZone, today = todayIn(timeZone, now));
    return today;
  };
  const own = units.map((unit): SearchResult => {
    const stay = stays.get(unit.rent_period) ?? null;
    const ruledOut = ruledOutOf(unit);
    const priced = stay && !ruledOut ? evaluateStay(unit, stay, data, guests, todayOf(unit.timezone), input) : null;
    const availability = priced?.availability ?? (stay && ruledOut ? ruledOutAvailability(ruledOut, input) : 'unavailable');
    const price = priced?.price ?? null;
    return {
      productId: unit.id,
      match: availability === 'available' && price !== null && unit.occupancy_matches && unit.options_match,
      occupancyMatches: unit.occupancy_matches, optionsMatch: unit.options_match, availability, price,
    };
  });
  return rollUpChildren(units, own);
}

/** A unit's availability for its stay, computed in full, and its price when available. */
function evaluateStay(
  unit: SearchUnitRow, stay: Stay, data: LeftUnitsData, guests: number, today: string, show: ShowOptions,
): { availability: StayStatus; price: SearchResult['price'] } {
  const nights = data.nights.get(unit.id) ?? [];
  const availability = stayAvailability(stay, unit, nights, data.events.get(unit.id) ?? [], today, show);
  if (availability !== 'available') return { availability, price: null };
  try {
    const priced = priceStay({
      product: unit, stay, nights, guests, today, language: 'en',
      services: (data.services.get(unit.id) ?? []).filter((service) => service.type === 'fee'),
      formValues: {}, taxes: data.taxes.get(unit.id) ?? [], coupons: [], couponCodes: [],
    });
    return { availability, price: { min: priced.quote.total, max: priced.quote.total } };
  } catch {
    return { availability, price: null };
  }
}

/**
 * A parent product (one with `parent_id` children — a room type and its rooms, say) also answers for its children:
 * it matches when it or any child matches, and its price spans the matching ones, since a guest who picks the
 * parent can book any of them. Children are listed on their own as well.
 */
export function rollUpChildren(products: Pick<Product, 'id' | 'parent_id'>[], own: SearchResult[]): SearchResult[] {
  const byId = new Map(own.map((result) => [result.productId, result]));
  const children = new Map<string, string[]>();
  for (const product of products) {
    if (!product.parent_id || !byId.has(product.parent_id)) continue;
    const siblings = children.get(product.parent_id);
    if (siblings) siblings.push(product.id);
    else children.set(product.parent_id, [product.id]);
  }
  const rolled = new Map<string, SearchResult>();
  // The products on the path being resolved (a parent_id cycle must not recurse for ever); empty between products.
  const ancestors = new Set<string>();
  const resolve = (id: string): SearchResult => {
    const done = rolled.get(id);
    if (done) return done;
    const self = byId.get(id)!;
    // A product without children answers for itself alone: its own result, as the roll-up below would rebuild it.
    if (!children.has(id)) return self;
    ancestors.add(id);
    const members = [self, ...children.get(id)!.filter((child) => !ancestors.has(child)).map(resolve)];
    ancestors.delete(id);
    const priced = members.filter((member) => member.match && member.price);
    const result: SearchResult = {
      productId: id,
      match: members.some((member) => member.match),
      occupancyMatches: members.some((member) => member.occupancyMatches),
      optionsMatch: members.some((member) => member.optionsMatch),
      availability: members.some((member) => member.availability === 'available') ? 'available' : self.availability,
      price: priced.length === 0 ? self.price : {
        min: Math.min(...priced.map((member) => member.price!.min)),
        max: Math.max(...priced.map((member) => member.price!.max)),
      },
    };
    rolled.set(id, result);
    return result;
  };
  return own.map((result) => resolve(result.productId));
}
