/**
 * The values a page offers, taken from the names it shows for them: `labelledKeys<Role>()(messages.en.role)` is every
 * role, and compiles only when the names are keyed by exactly `Key` — a value added to the database's list without a
 * name, or a name left for a value that is gone, fails the typecheck. So the list and its names are one.
 */
export const labelledKeys = <Key extends string>() =>
  <Labels extends Record<Key, unknown>>(labels: Labels & Record<Exclude<keyof Labels, Key>, never>): Key[] => Object.keys(labels) as Key[];
