/**
 * A unit as the booking rules and the pricing read it (src/booking/model.ts's Product), for the unit tests that need
 * no database: one default written once, so a new field of the model is one edit here.
 */
import type { Product } from '../../src/booking/model.js';

export function productModel(fields: Partial<Product> = {}): Product {
  return {
    id: 'villa', parent_id: null, name: { default: 'Villa' }, currency: 'EUR', timezone: 'UTC', rent_period: 'nightly',
    interaction: 'book', request_status: 'TENTATIVE', cooldown_time: 0, rent_pricing_definition: 'configurations',
    ...fields,
  };
}
