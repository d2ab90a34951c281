/**
 * What the extras section offers, as values of their columns (their words: messages.ts, keyed by the same types):
 * the kinds of services a unit can charge for (docs/booking.md "Services": a `fee` is always charged, e.g. cleaning;
 * a checkbox or a quantity is the guest's choice), what a price is counted per, and when a payment is due.
 */
import type { Enums } from '../api/database';
import type { Moment, ServicePricing } from '../api/json-columns';

/** The kinds a new extra can be; a service's other kinds are questions to the guest, made elsewhere. */
export const SERVICE_KINDS = ['fee', 'checkbox', 'quantity'] as const satisfies readonly Enums<'services_type'>[];
export type OfferedServiceKind = (typeof SERVICE_KINDS)[number];

export const isOfferedKind = (kind: string): kind is OfferedServiceKind => (SERVICE_KINDS as readonly string[]).includes(kind);

export const PRICED_PER: readonly ServicePricing['per'][] = ['stay', 'night', 'guest', 'guest_night', 'unit'];

export const PAYMENT_MOMENTS: readonly Moment['type'][] = ['confirmation', 'request', 'check-in', 'on-site', 'checkout'];
