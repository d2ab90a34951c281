/**
 * How many guests a booking has, and of which kinds — one rule for the guest page, e-mails, invoices and the
 * dashboard (which imports this file): a stored occupancy holds every capacity group, and a group that sums others
 * (an accumulator of `capacity_group_dependencies`, e.g. "Guests" = adults + children) repeats their guests, so it is
 * neither counted nor listed. Pure, no Node.js.
 */

export interface OccupancyGroup<Name = Record<string, string>> {
  id: string;
  name: Name;
  /** Whether the group sums other groups (it is an accumulator). */
  accumulator: boolean;
}

/** The groups with guests, in the order given, without accumulators; each with its count. */
export function guestGroups<G extends OccupancyGroup<unknown>>(occupancy: Readonly<Record<string, number>>, groups: readonly G[]): { group: G; count: number }[] {
  return groups
    .filter((group) => !group.accumulator && (occupancy[group.id] ?? 0) > 0)
    .map((group) => ({ group, count: occupancy[group.id]! }));
}

/** The number of guests: the counts of every group that is not an accumulator (unknown groups count as guests). */
export function guestCount(occupancy: Readonly<Record<string, number>>, groups: readonly OccupancyGroup<unknown>[]): number {
  const accumulators = new Set(groups.filter((group) => group.accumulator).map((group) => group.id));
  return Object.entries(occupancy).reduce((sum, [id, count]) => (accumulators.has(id) ? sum : sum + count), 0);
}
