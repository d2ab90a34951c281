/**
 * What the extras section offers, in a manager's words: the kinds of services a unit can charge for (docs/booking.md
 * "Services": a `fee` is always charged, e.g. cleaning; a checkbox or a quantity is the guest's choice), what a price
 * is counted per, and when a payment is due. Each list names every value its column allows, so the typecheck fails
 * when a migration changes one.
 */
import type { Moment, ServicePricing } from '../api/json-columns';

export const SERVICE_KINDS = [
  { value: 'fee', label: 'Always charged (a fee, e.g. cleaning)' },
  { value: 'checkbox', label: 'Optional: the guest ticks it' },
  { value: 'quantity', label: 'Optional: the guest picks how many' },
] as const;

export const PRICED_PER: readonly { value: ServicePricing['per']; label: string }[] = [
  { value: 'stay', label: 'per stay' },
  { value: 'night', label: 'per night' },
  { value: 'guest', label: 'per guest' },
  { value: 'guest_night', label: 'per guest per night' },
  { value: 'unit', label: 'per item' },
];

export const PAYMENT_MOMENTS: readonly { value: Moment['type']; label: string }[] = [
  { value: 'confirmation', label: 'days after confirmation' },
  { value: 'request', label: 'days after the request' },
  { value: 'check-in', label: 'days from arrival' },
  { value: 'on-site', label: 'days from arrival, paid on site' },
  { value: 'checkout', label: 'days from departure' },
];

export const labelOf = <Value extends string>(list: readonly { value: Value; label: string }[], value: string | undefined) =>
  list.find((item) => item.value === value)?.label ?? value ?? '';
