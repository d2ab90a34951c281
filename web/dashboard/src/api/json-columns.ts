/**
 * The shapes of the JSON columns the dashboard reads and writes. The generated types (schema/database.types.ts) can only
 * say `Json` for a jsonb column; database.ts puts these shapes in their place — Supabase's documented way of typing
 * JSON fields — so selects of these columns come back shaped and writes are checked. A table or column named here
 * that the API does not have (or that is not JSON) fails the typecheck (`CheckedShapes`). `Json` includes null, so the
 * type cannot tell a nullable JSON column: a shape says `| null` itself (every column here is NOT NULL). Shapes the
 * server already defines are imported from it rather than written again.
 */
import type { CouponDefinition } from '../../../../src/booking/model.js';
import type { CancellationRule } from '../../../../src/common/cancellation-policy.js';
import type { LanguageTexts } from '../../../../src/common/languages.js';
import type { Database as Generated, Json } from '../../../../schema/database.types';
import type { StoredTerms } from '../settings/booking-terms';
import type { TemplateAttachment } from '../../../../src/automations/template-queries.js';

type GeneratedTables = Generated['api']['Tables'];

/** One row of a configuration's rate table (staykit_internal.is_rate_table): from this many nights and guests, this rate (minor units). */
export interface ConfigurationRate {
  duration: number;
  occupancy: number;
  rate: number;
}

/** One photo of a unit (`products.images`, checked by the database: docs/media.md). */
export interface ProductImage {
  media_id: string;
  alt?: LanguageTexts;
  cover?: boolean;
}

/** One resized copy Staykit made of an uploaded photo (`media.variants`). */
export interface MediaVariant {
  width: number;
  height: number;
  format: 'avif' | 'webp' | 'jpeg';
  bytes: number;
  url: string;
}

/** A rate adjustment of a configuration: from/until this threshold, this percentage added (negative: a discount). */
export type Adjustment<Threshold extends string> = { [Key in Threshold]: number } & { percentage: number };

/** A service's price (staykit_internal.is_service_pricing): per stay, night, guest, guest and night or unit. */
export interface ServicePricing {
  per: 'stay' | 'night' | 'guest' | 'guest_night' | 'unit';
  amount: number;
  deposit?: number | boolean;
}

/** A moment (staykit_internal.is_moment): when a payment of a service is due (service_payment_moments.moment, with its share in value), or when an e-mail template is sent. */
export interface Moment {
  type: 'check-in' | 'checkout' | 'confirmation' | 'on-site' | 'request';
  offset: number;
}
export interface PaymentValue {
  type: 'percentage' | 'fixed';
  value: number;
}

/** Only tables of the API and their `Json` columns: anything else names a column as `never` and fails. */
type CheckedShapes<Shapes extends {
  [Table in keyof Shapes]: Table extends keyof GeneratedTables
    ? { [Column in keyof Shapes[Table]]: Column extends keyof GeneratedTables[Table]['Row'] ? (Json extends GeneratedTables[Table]['Row'][Column] ? unknown : never) : never }
    : never
}> = Shapes;

export type JsonShapes = CheckedShapes<{
  attribute_options: { name: LanguageTexts };
  attributes: { name: LanguageTexts };
  booking_details: { name: LanguageTexts };
  bookings: { occupancy: Record<string, number> };
  capacity_groups: { name: LanguageTexts };
  coupons: { definition: CouponDefinition };
  email_templates: { subject: LanguageTexts; body: LanguageTexts; moment: Moment | null; attachments: TemplateAttachment[] };
  line_items: { name: LanguageTexts };
  media: { variants: MediaVariant[] };
  message_templates: { subject: LanguageTexts; body: LanguageTexts; moment: Moment | null };
  organizations: { settings: { [key: string]: unknown; booking_terms?: StoredTerms; brand_color?: string | null; logo_media_id?: string | null } };
  product_configurations: {
    name: LanguageTexts; rates: ConfigurationRate[]; early_bird_adjustments: Adjustment<'min_advance'>[];
    last_minute_adjustments: Adjustment<'max_advance'>[]; long_rent_adjustments: Adjustment<'min_duration'>[];
  };
  products: { name: LanguageTexts; description: LanguageTexts; cancellation_policy: CancellationRule[]; images: ProductImage[] };
  seasons: { name: LanguageTexts };
  service_payment_moments: { moment: Moment; value: PaymentValue };
  services: { name: LanguageTexts; description: LanguageTexts; pricing: ServicePricing | null };
}>;
