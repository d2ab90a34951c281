/**
 * The tables the booking flow's statements may read as the API role (the database's read-scope policies hide all
 * others), whatever the key's per-resource scopes: the endpoint's own scope — bookings:read, bookings:write or
 * products:write — authorizes the flow, which answers with computed availability, prices and what it created, never
 * with rows of these tables as such. Guests, bookings, organizations, webhooks and the rest stay out of its reach
 * (the booking itself is written by a database function of its own).
 */
import type { TenantTransactionOptions } from '../transaction/tenant-transaction.js';

export const FLOW_TRANSACTION: TenantTransactionOptions = {
  readable: [
    'products', 'product_configurations', 'product_attribute_options', 'calendar_events', 'capacity_groups',
    'capacity_group_dependencies', 'capacities', 'services', 'service_options', 'product_services', 'taxes',
    'product_taxes', 'coupons', 'coupon_uses', 'coupon_products', 'coupon_services', 'service_payment_moments',
    'price_calendar_entries', 'pricelabs_pricing',
  ],
};
