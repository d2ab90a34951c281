/**
 * POST /v1/search: every product of the organization against an optional stay, occupancy and attribute options.
 * Per product: whether it matches, why not (occupancy, options, availability), and its price — the full price of
 * the stay (rent, adjustments, mandatory fees and taxes; no coupons or optional extras) when an interval is given,
 * else the lowest and highest nightly rate for the occupancy. A fixed number of statements whatever the number
 * of products.
 */
import type { Queryable } from '../db/types.js';
import { addDays, todayIn } from '../common/dates.js';
import type { ShowOptions } from './show-options.js';
import { parseShowOptions } from './show-options.js';
import { invalidInput } from './errors.js';
import {
  isObject, parseInterval, parseOccupancy, parseUuid, rejectUnknownFields, requireObject, type Interval,
} from './input.js';
import {
  groupBy, type BlockingEvent, type Capacity, type CapacityGroup, type Night, type Product, type Service, type Tax,
} from './model.js';
import {
  allProductsQuery, blockingEventsQuery, capacitiesQuery, capacityGroupsQuery, loadNights, run, servicesQuery,
  taxesQuery,
} from './queries.js';
import {
  attributeOptionsQuery, BLOCKED_PERIOD, CONFIRMED_BOOKING, rateRangesQuery, ruledOutQuery, TENTATIVE_BOOKING,
  type AttributeOptionRow, type RateRangeRow, type RuledOutRow,
} from './search-queries.js';
import { priceStay } from './pricing.js';
import { conflictingEvents, paddingFor, resolveOccupancy, stayRuleViolations, toStay, type Stay } from './rules.js';

export interface SearchInput extends ShowOptions {
  interval: Interval | null;
  occupancy: Record<string, number>;
  optionIds: string[];
}

export interface SearchResult {
  productId: string;
  match: boolean;
  occupancyMatches: boolean;
  optionsMatch: boolean;
  availability: string | null;
  price: { min: number; max: number } | null;
}

export function parseSearchInput(value: unknown): SearchInput {
  const body = value === undefined || value === null ? {} : requireObject(value, 'The request body');
  rejectUnknownFields(body, ['interval', 'occupancy', 'option_ids', 'show_booked_as', 'show_closed_as', 'show_pending_as']);
  let optionIds: string[] = [];
  if (body.option_ids !== undefined && body.option_ids !== null) {
    if (!Array.isArray(body.option_ids)) throw invalidInput('option_ids must be an array of attribute option ids');
    optionIds = body.option_ids.map((id, index) => parseUuid(id, `option_ids[${index}]`));
  }
  return {
    interval: body.interval === undefined || body.interval === null ? null : parseInterval(body.interval),
    occupancy: parseOccupancy(body.occupancy),
    optionIds,
    ...parseShowOptions(isObject(body) ? body : {}),
  };
}

function blockerOf(event: BlockingEvent): number {
  if (event.type !== 'booking') return BLOCKED_PERIOD;
  return event.status === 'TENTATIVE' ? TENTATIVE_BOOKING : CONFIRMED_BOOKING;
}

function stayAvailability(stay: Stay, product: Product, nights: Night[], events: BlockingEvent[], today: string, show: ShowOptions): string {
  if (nights.some((night) => !night.configuration)) return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
  const conflicts = conflictingEvents(stay, paddingFor(product, nights[0]?.configuration ?? null), events)
    .filter((event) => !(show.showPendingAs === 'CANCELLED' && event.type === 'booking' && event.status === 'TENTATIVE'));
  if (conflicts.length > 0) return conflictAvailability(conflicts.reduce((kinds, event) => kinds | blockerOf(event), 0), show);
  if (stayRuleViolations(product, stay, nights, today).length > 0) return 'unavailable';
  if (product.rent_pricing_definition !== 'services' && nights.some((night) => night.rate === null)) return 'unavailable';
  return 'available';
}

/**
 * What a search reads before it looks at any stay: the products, the capacity groups, capacities and attribute
 * options, and the guests the occupancy counts.
 */
export interface SearchContext {
  products: Product[];
  groups: CapacityGroup[];
  capacities: Map<string, Capacity[]>;
  optionRows: Map<string, AttributeOptionRow[]>;
  noOccupancy: boolean;
  guests: number;
}

/** The search's context; null when the organization has no products (the search answers `[]`, whatever it asks). */
export async function loadSearchContext(tx: Queryable, input: SearchInput): Promise<SearchContext | null> {
  const products = await run<Product>(tx, allProductsQuery());
  if (products.length === 0) return null;
  const ids = products.map((product) => product.id);
  const groups = await run<CapacityGroup>(tx, capacityGroupsQuery());
  const capacities = groupBy(await run<Capacity>(tx, capacitiesQuery(ids)));
  const optionRows = groupBy(await run<AttributeOptionRow>(tx, attributeOptionsQuery(ids)));
  // Occupancy: unknown groups are a 400 for the whole search (same check as /book). Without one, prices are for
  // one guest.
  const noOccupancy = Object.keys(input.occupancy).length === 0;
  const guests = noOccupancy ? 1 : resolveOccupancy(input.occupancy, groups, []).guests;
  return { products, groups, capacities, optionRows, noOccupancy, guests };
}

/** Why the availability index ruled a product out for the stay, by product. */
export type RuledOut = Map<string, RuledOutRow>;

/** The products the availability index rules out for the interval (each rent period has its own stay). */
async function ruledOutByIndex(tx: Queryable, context: SearchContext, input: SearchInput): Promise<RuledOut> {
  const ruledOut: RuledOut = new Map();
  if (!input.interval) return ruledOut;
  const mask = CONFIRMED_BOOKING | BLOCKED_PERIOD | (input.showPendingAs === 'CANCELLED' ? 0 : TENTATIVE_BOOKING);
  for (const period of ['nightly', 'daily'] as const) {
    const ids = new Set(context.products.filter((product) => product.rent_period === period).map((product) => product.id));
    const stay = stayOf(period, input.interval);
    if (ids.size === 0 || !stay) continue;
    for (const row of await run<RuledOutRow>(tx, ruledOutQuery(stay.start, stay.endExclusive, stay.length, mask))) {
      if (ids.has(row.product_id)) ruledOut.set(row.product_id, row);
    }
  }
  return ruledOut;
}

function stayOf(period: Product['rent_period'], interval: Interval): Stay | null {
  try {
    return toStay(period, interval);
  } catch {
    return null; // a zero-night interval cannot be a nightly stay
  }
}

/** The availability of a stay the index ruled out, as stayAvailability would have found it. */
function ruledOutAvailability(row: RuledOutRow, show: ShowOptions): string {
  if (row.closed) return show.showClosedAs === 'closed' ? 'closed' : 'unavailable';
  return conflictAvailability(row.blockers, show);
}

/** The availability of a stay that meets blocking events of the kinds in `blockers` (after show_pending_as). */
function conflictAvailability(blockers: number, show: ShowOptions): string {
  const booked = show.showBookedAs === 'booked' ? 'booked' : 'unavailable';
  if (blockers === TENTATIVE_BOOKING) return show.showPendingAs === 'CONFIRMED' ? booked : 'tentative';
  return blockers & (CONFIRMED_BOOKING | TENTATIVE_BOOKING) ? booked : 'unavailable';
}

export async function search(tx: Queryable, input: SearchInput, now: Date): Promise<SearchResult[]> {
  const context = await loadSearchContext(tx, input);
  if (!context) return [];
  return evaluateSearch(tx, input, now, context, await ruledOutByIndex(tx, context, input));
}

/**
 * Every product's result. Nights, prices and events are read only for the products `ruledOut` leaves: with an
 * empty map, every product is computed in full (what the availability index must agree with).
 */
export async function evaluateSearch(
  tx: Queryable, input: SearchInput, now: Date, context: SearchContext, ruledOut: RuledOut,
): Promise<SearchResult[]> {
  const { products, groups, capacities, optionRows, noOccupancy, guests } = context;
  const ids = products.map((product) => product.id);
  const stays = new Map<string, Stay | null>();
  const nightsByProduct = new Map<string, Night[]>();
  let events = new Map<string, BlockingEvent[]>();
  let services = new Map<string, (Service & { product_id: string })[]>();
  let taxes = new Map<string, Tax[]>();
  if (input.interval) {
    for (const period of ['nightly', 'daily'] as const) {
      const periodProducts = products.filter((product) => product.rent_period === period);
      if (periodProducts.length === 0) continue;
      const stay = stayOf(period, input.interval);
      for (const product of periodProducts) stays.set(product.id, stay);
      const left = periodProducts.filter((product) => !ruledOut.has(product.id)).map((product) => product.id);
      if (!stay || left.length === 0) continue;
      const nights = await loadNights(tx, left, stay.start, addDays(stay.endExclusive, -1), stay.length, guests);
      for (const [id, list] of nights) nightsByProduct.set(id, list);
    }
    // Each product's events up to the end of the stay plus the cooldown its arrival configuration asks for.
    const withStay = products.filter((product) => stays.get(product.id) && !ruledOut.has(product.id));
    if (withStay.length > 0) {
      const left = withStay.map((product) => product.id);
      const untils = withStay.map((product) => addDays(stays.get(product.id)!.endExclusive,
        paddingFor(product, nightsByProduct.get(product.id)?.[0]?.configuration ?? null)));
      events = groupBy(await run<BlockingEvent>(tx, blockingEventsQuery(left, input.interval.start, untils)));
      services = groupBy(await run<Service>(tx, servicesQuery(left)));
      taxes = groupBy(await run<Tax>(tx, taxesQuery(left)));
    }
  }
  const rateRanges = input.interval ? new Map<string, { min: number; max: number }>() : new Map(
    (await run<RateRangeRow>(tx, rateRangesQuery(ids, noOccupancy ? null : guests)))
      .map((row) => [row.product_id, { min: row.min, max: row.max }]),
  );

  const todays = new Map<string, string>();
  const todayOf = (timeZone: string): string => {
    let today = todays.get(timeZone);
    if (today === undefined) todays.set(timeZone, today = todayIn(timeZone, now));
    return today;
  };
  const own = products.map((product): SearchResult => {
    const occupancy = resolveOccupancy(input.occupancy, groups, capacities.get(product.id) ?? []);
    const occupancyMatches = noOccupancy || occupancy.reasons.filter((reason) => !reason.endsWith('must be given')).length === 0;
    const options = new Set((optionRows.get(product.id) ?? []).map((row) => row.attribute_option_id));
    const optionsMatch = input.optionIds.every((id) => options.has(id));
    if (!input.interval) {
      return {
        productId: product.id, match: occupancyMatches && optionsMatch, occupancyMatches, optionsMatch,
        availability: null, price: rateRanges.get(product.id) ?? null,
      };
    }
    const stay = stays.get(product.id) ?? null;
    const nights = nightsByProduct.get(product.id) ?? [];
    const today = todayOf(product.timezone);
    const indexed = ruledOut.get(product.id);
    let availability = 'unavailable';
    if (stay && indexed) availability = ruledOutAvailability(indexed, input);
    else if (stay) availability = stayAvailability(stay, product, nights, events.get(product.id) ?? [], today, input);
    let price: SearchResult['price'] = null;
    if (stay && availability === 'available') {
      try {
        const priced = priceStay({
          product, stay, nights, guests, today, language: 'en',
          services: (services.get(product.id) ?? []).filter((service) => service.type === 'fee'),
          formValues: {}, taxes: taxes.get(product.id) ?? [], coupons: [], couponCodes: [],
        });
        price = { min: priced.quote.total, max: priced.quote.total };
      } catch {
        price = null;
      }
    }
    return {
      productId: product.id,
      match: availability === 'available' && price !== null && occupancyMatches && optionsMatch,
      occupancyMatches, optionsMatch, availability, price,
    };
  });
  return rollUpChildren(products, own);
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
    if (product.parent_id && byId.has(product.parent_id)) children.set(product.parent_id, [...(children.get(product.parent_id) ?? []), product.id]);
  }
  const rolled = new Map<string, SearchResult>();
  const resolve = (id: string, ancestors: Set<string>): SearchResult => {
    const done = rolled.get(id);
    if (done) return done;
    const self = byId.get(id)!;
    ancestors.add(id);
    const members = [self, ...(children.get(id) ?? []).filter((child) => !ancestors.has(child)).map((child) => resolve(child, ancestors))];
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
  return own.map((result) => resolve(result.productId, new Set()));
}
