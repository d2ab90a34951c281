/**
 * The stay rules (docs/design.md#stay-rules) as pure functions: the shape of a stay per rent period, the rules of the
 * arrival configuration, overlaps with existing events (cooldown padding included) and occupancy.
 */
import { addDays, daysBetween, weekdayIndex, WEEKDAY_NAMES } from '../common/dates.js';
import { invalidInput, unknownCapacityGroup } from './errors.js';
import type { Interval } from './input.js';
import type { BlockingEvent, Capacity, CapacityGroup, Configuration, Night, Product } from './model.js';
import { localize } from './model.js';

export interface Stay {
  start: string;
  /** The interval's `end` as sent: the checkout date (nightly) or the last rented day (daily). */
  end: string;
  /** First free date: `end` for nightly, `end + 1` for daily — the calendar event's `end_date`. */
  endExclusive: string;
  /** Nights (nightly) or days (daily) rented. */
  length: number;
}

/** The longest stay the booking flow prices (a configuration's max_duration can only be stricter). */
export const MAX_STAY_DAYS = 731;

export function toStay(rentPeriod: Product['rent_period'], interval: Interval, field = 'interval'): Stay {
  if (rentPeriod === 'nightly' && interval.end <= interval.start) {
    throw invalidInput(`${field}.end must be after ${field}.start: a nightly stay has at least one night`);
  }
  const endExclusive = rentPeriod === 'nightly' ? interval.end : addDays(interval.end, 1);
  const length = daysBetween(interval.start, endExclusive);
  if (length > MAX_STAY_DAYS) throw invalidInput(`${field}: a stay may be at most ${MAX_STAY_DAYS} days`);
  return { ...interval, endExclusive, length };
}

/** Padding after the stay: the arrival configuration's cooldown (the product's when rent is priced by services). */
export function paddingFor(product: Product, arrival: Configuration | null): number {
  if (product.rent_pricing_definition === 'services') return product.cooldown_time;
  return arrival?.cooldown_time ?? 0;
}

/** Reasons the stay breaks its configuration rules (empty when it does not). `nights` covers [start, endExclusive). */
export function stayRuleViolations(product: Product, stay: Stay, nights: Night[], today: string): string[] {
  const unit = product.rent_period === 'nightly' ? 'nights' : 'days';
  const reasons: string[] = [];
  const closed = nights.filter((night) => !night.configuration).map((night) => night.date);
  if (closed.length > 0) reasons.push(`The product is closed on ${closed.slice(0, 5).join(', ')}${closed.length > 5 ? ', …' : ''}`);
  const arrival = nights[0]?.configuration;
  if (!arrival) return reasons;
  const advance = daysBetween(today, stay.start);
  if (advance < 0) reasons.push(`The arrival date ${stay.start} is in the past`);
  if (!arrival.check_in_days[weekdayIndex(stay.start)]) {
    reasons.push(`Check-in is not possible on ${WEEKDAY_NAMES[weekdayIndex(stay.start)]} (${stay.start})`);
  }
  if (!arrival.checkout_days[weekdayIndex(stay.end)]) {
    reasons.push(`Check-out is not possible on ${WEEKDAY_NAMES[weekdayIndex(stay.end)]} (${stay.end})`);
  }
  if (stay.length < arrival.min_duration) reasons.push(`The stay must be at least ${arrival.min_duration} ${unit}`);
  if (arrival.max_duration > 0 && stay.length > arrival.max_duration) {
    reasons.push(`The stay may be at most ${arrival.max_duration} ${unit}`);
  }
  if (advance >= 0 && advance < arrival.min_advance) {
    reasons.push(`The arrival must be at least ${arrival.min_advance} days ahead`);
  }
  if (arrival.max_advance > 0 && advance > arrival.max_advance) {
    reasons.push(`The arrival may be at most ${arrival.max_advance} days ahead`);
  }
  return reasons;
}

/** Events whose blocked range [start, end + padding) meets the stay's [start, endExclusive + padding). */
export function conflictingEvents(stay: Stay, padding: number, events: BlockingEvent[]): BlockingEvent[] {
  const until = addDays(stay.endExclusive, padding);
  return events.filter((event) => event.start_date < until && stay.start < addDays(event.end_date, event.padding));
}

export interface ResolvedOccupancy {
  /** The occupancy as stored: the given groups plus every accumulator set to the sum of its elements. */
  occupancy: Record<string, number>;
  /** G: the sum of the non-accumulator groups. */
  guests: number;
  reasons: string[];
}

export function resolveOccupancy(
  given: Record<string, number>, groups: CapacityGroup[], capacities: Capacity[], language = 'en',
): ResolvedOccupancy {
  const byId = new Map(groups.map((group) => [group.id, group]));
  for (const id of Object.keys(given)) if (!byId.has(id)) throw unknownCapacityGroup(id);
  const occupancy: Record<string, number> = {};
  const valueOf = (id: string, seen: Set<string>): number => {
    const group = byId.get(id);
    if (!group || group.elements.length === 0 || seen.has(id)) return given[id] ?? 0;
    seen.add(id);
    return group.elements.reduce((sum, element) => sum + valueOf(element, seen), 0);
  };
  let guests = 0;
  for (const group of groups) {
    if (group.elements.length > 0) {
      const sum = valueOf(group.id, new Set());
      if (sum > 0 || group.id in given) occupancy[group.id] = sum;
    } else if (group.id in given) {
      occupancy[group.id] = given[group.id]!;
      guests += given[group.id]!;
    }
  }
  const reasons: string[] = [];
  // Explicit input is required for the groups the product has capacities for (other groups do not apply to it).
  const limited = new Set(capacities.map((capacity) => capacity.capacity_group_id));
  for (const group of groups) {
    if (group.requires_explicit_input && limited.has(group.id) && group.elements.length === 0 && !(group.id in given)) {
      reasons.push(`The number of ${localize(group.name, language) || group.id} must be given`);
    }
  }
  for (const capacity of capacities) {
    const group = byId.get(capacity.capacity_group_id);
    const name = localize(group?.name, language) || capacity.capacity_group_id;
    const value = occupancy[capacity.capacity_group_id] ?? 0;
    if (value < capacity.min) reasons.push(`At least ${capacity.min} ${name} required (got ${value})`);
    if (capacity.max !== null && value > capacity.max) reasons.push(`At most ${capacity.max} ${name} allowed (got ${value})`);
  }
  return { occupancy, guests, reasons };
}
