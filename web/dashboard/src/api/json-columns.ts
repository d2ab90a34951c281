/**
 * The shapes of the JSON columns the dashboard reads and writes. The generated types (database.types.ts) can only
 * say `Json` for a jsonb column; database.ts puts these shapes in their place — Supabase's documented way of typing
 * JSON fields — so selects of these columns come back shaped and writes are checked. A table or column named here
 * that the API does not have (or that is not JSON) fails the typecheck (`CheckedShapes`). `Json` includes null, so the
 * type cannot tell a nullable JSON column: a shape says `| null` itself (every column here is NOT NULL). Shapes the
 * server already defines are imported from it rather than written again.
 */
import type { CouponDefinition } from '../../../../src/booking/model.js';
import type { CancellationRule } from '../../../../src/common/cancellation-policy.js';
import type { LanguageTexts } from '../../../../src/common/languages.js';
import type { Database as Generated, Json } from './database.types';
import type { StoredTerms } from '../settings/booking-terms';

type GeneratedTables = Generated['api']['Tables'];

/** One row of a configuration's rate table (staykit_internal.is_rate_table): from this many nights and guests, this rate (minor units). */
export interface ConfigurationRate {
  duration: number;
  occupancy: number;
  rate: number;
}

/** Only tables of the API and their `Json` columns: anything else names a column as `never` and fails. */
type CheckedShapes<Shapes extends {
  [Table in keyof Shapes]: Table extends keyof GeneratedTables
    ? { [Column in keyof Shapes[Table]]: Column extends keyof GeneratedTables[Table]['Row'] ? (Json extends GeneratedTables[Table]['Row'][Column] ? unknown : never) : never }
    : never
}> = Shapes;

export type JsonShapes = CheckedShapes<{
  booking_details: { name: LanguageTexts };
  bookings: { occupancy: Record<string, number> };
  capacity_groups: { name: LanguageTexts };
  coupons: { definition: CouponDefinition };
  email_templates: { subject: LanguageTexts; body: LanguageTexts };
  line_items: { name: LanguageTexts };
  organizations: { settings: { [key: string]: unknown; booking_terms?: StoredTerms } };
  product_configurations: { name: LanguageTexts; rates: ConfigurationRate[] };
  products: { name: LanguageTexts; cancellation_policy: CancellationRule[] };
}>;
