/**
 * The public catalogue of a publishable key's widget or site, as one JSON document built by PostgreSQL: the widget
 * (or site) settings, the listed products with their public fields only (never exact addresses, iCal secrets or
 * internal settings) and their cancellation policies, their capacities, services with options, the organization's
 * capacity groups and attributes, and its booking terms — of the organization's settings that one only, through
 * staykit_internal.current_booking_terms() (migration 0225): organizations stay unreadable to the key. Each unit's
 * photos come with their media rows' sizes and resized copies as absolute URLs below `mediaBase` (the address the
 * catalogue was asked at), the cover marked as staykit_internal.product_cover picks it: marked, else the first.
 * Run as the API role in the key's transaction, where products not listed are invisible anyway (migration 0150);
 * the dashboard's preview of one unit runs it in the member's session transaction instead (src/dashboard/unit-preview-routes.ts).
 */
import type { SqlQuery } from '../booking/queries.js';

/** The tables the catalogue statement reads. */
export const CATALOGUE_TABLES = [
  'widgets', 'sites', 'widget_listings', 'site_listings', 'products', 'media', 'capacities', 'product_services',
  'product_attribute_options', 'capacity_groups', 'capacity_group_dependencies', 'services', 'service_options',
  'attributes', 'attribute_options',
] as const;

/** What the catalogue lists: a widget's or a site's listings, or one unit (the dashboard's preview of it). */
export interface CatalogueListing {
  widgetId: string | null;
  siteId: string | null;
  productId?: string;
}

/** `mediaBase`: scheme, host and port without a trailing slash (`https://staykit.example`), put before `/media/…`. */
export function catalogueQuery({ widgetId, siteId, productId }: CatalogueListing, mediaBase: string): SqlQuery {
  return {
    text: `
WITH listed AS (
  SELECT l.product_id, l."order" FROM api.widget_listings AS l WHERE l.widget_id = $1
  UNION ALL
  SELECT l.product_id, l."order" FROM api.site_listings AS l WHERE l.site_id = $2
  UNION ALL
  SELECT $4::uuid, 0 WHERE $4::uuid IS NOT NULL
), listed_products AS (
  -- The columns the catalogue shows, by name: the API role may not read every column of products (migration 0205).
  SELECT p.id, p.name, p.description, p.images, p.currency, p.rent_period, p.timezone, p.interaction,
         p.approximate_address, p.approximate_coordinates, p.confirmation_message, p.cta, p.latest_arrival_time,
         p.cancellation_policy, listed."order" AS listing_order
  FROM api.products AS p JOIN listed ON listed.product_id = p.id
  WHERE p.deleted_at IS NULL
)
SELECT json_build_object(
  'widget', (SELECT json_build_object('id', w.id, 'name', w.name, 'type', w.type, 'language', w.language, 'settings', w.settings)
             FROM api.widgets AS w WHERE w.id = $1),
  'site', (SELECT json_build_object('id', s.id, 'name', s.name, 'default_language', s.default_language,
                                    'languages', s.languages, 'theme', s.theme)
           FROM api.sites AS s WHERE s.id = $2),
  'products', coalesce((
    SELECT json_agg(json_build_object(
      'id', p.id, 'name', p.name, 'description', p.description, 'currency', p.currency,
      'images', coalesce((
        SELECT json_agg(json_build_object(
          'media_id', m.id,
          -- Marked cover, else the first: one per unit (products.images allows at most one mark, migration 0231).
          'cover', coalesce(listed_image.marked, false) OR (listed_image.position = 1 AND NOT EXISTS (
            SELECT 1 FROM json_array_elements(p.images) AS other WHERE (other ->> 'cover') = 'true')),
          'alt', CASE WHEN json_typeof(listed_image.image -> 'alt') = 'object' THEN listed_image.image -> 'alt' ELSE '{}'::json END,
          'url', $3 || m.url, 'width', m.width, 'height', m.height, 'dominant_color', m.dominant_color,
          'variants', (SELECT json_agg(json_build_object('width', v.variant -> 'width', 'height', v.variant -> 'height',
                                                         'format', v.variant -> 'format', 'url', $3 || (v.variant ->> 'url'))
                                       ORDER BY v.position)
                       FROM jsonb_array_elements(m.variants) WITH ORDINALITY AS v(variant, position))
        ) ORDER BY listed_image.position)
        FROM (SELECT image, position, (image ->> 'cover') = 'true' AS marked
              FROM json_array_elements(CASE WHEN json_typeof(p.images) = 'array' THEN p.images ELSE '[]' END)
                WITH ORDINALITY AS listed(image, position)) AS listed_image
        JOIN api.media AS m ON m.id::text = lower(listed_image.image ->> 'media_id')), '[]'),
      'rent_period', p.rent_period, 'timezone', p.timezone, 'interaction', p.interaction,
      'approximate_address', p.approximate_address, 'approximate_coordinates', p.approximate_coordinates,
      'confirmation_message', p.confirmation_message, 'cta', p.cta, 'latest_arrival_time', p.latest_arrival_time,
      'cancellation_policy', p.cancellation_policy,
      'capacities', coalesce((SELECT json_agg(json_build_object('capacity_group_id', c.capacity_group_id, 'min', c.min, 'max', c.max))
                              FROM api.capacities AS c WHERE c.product_id = p.id), '[]'),
      'service_ids', coalesce((SELECT json_agg(ps.service_id ORDER BY ps."order", ps.service_id)
                               FROM api.product_services AS ps WHERE ps.product_id = p.id), '[]'),
      'attribute_option_ids', coalesce((SELECT json_agg(pa.attribute_option_id ORDER BY pa.attribute_option_id)
                                        FROM api.product_attribute_options AS pa WHERE pa.product_id = p.id), '[]')
    ) ORDER BY p.listing_order, p.id) FROM listed_products AS p), '[]'),
  'capacity_groups', coalesce((
    SELECT json_agg(json_build_object(
      'id', g.id, 'name', g.name, 'name_singular', g.name_singular, 'description', g.description, 'order', g."order",
      'type', g.type, 'requires_explicit_input', g.requires_explicit_input,
      'element_ids', coalesce((SELECT json_agg(d.element_id ORDER BY d.element_id)
                               FROM api.capacity_group_dependencies AS d WHERE d.accumulator_id = g.id), '[]')
    ) ORDER BY g."order", g.id) FROM api.capacity_groups AS g), '[]'),
  'services', coalesce((
    SELECT json_agg(json_build_object(
      'id', s.id, 'name', s.name, 'description', s.description, 'type', s.type, 'pricing', s.pricing,
      'required', s.required, 'max_quantity', s.max_quantity, 'order', s."order",
      'options', coalesce((SELECT json_agg(json_build_object('id', o.id, 'name', o.name, 'pricing', o.pricing, 'order', o."order")
                                           ORDER BY o."order", o.id)
                           FROM api.service_options AS o WHERE o.service_id = s.id), '[]')
    ) ORDER BY s."order", s.id)
    FROM api.services AS s
    WHERE s.active AND s.id IN (SELECT ps.service_id FROM api.product_services AS ps JOIN listed_products AS p ON p.id = ps.product_id)
  ), '[]'),
  'attributes', coalesce((
    SELECT json_agg(json_build_object(
      'id', a.id, 'name', a.name, 'type', a.type, 'order', a."order",
      'options', coalesce((SELECT json_agg(json_build_object('id', o.id, 'name', o.name, 'order', o."order") ORDER BY o."order", o.id)
                           FROM api.attribute_options AS o WHERE o.attribute_id = a.id), '[]')
    ) ORDER BY a."order", a.id) FROM api.attributes AS a), '[]'),
  'booking_terms', staykit_internal.current_booking_terms()
) AS catalogue`,
    values: [widgetId, siteId, mediaBase, productId ?? null],
  };
}

/** Counts a widget's view or quote (as the database owner: widget_analytics is read-only to the API role). */
export function widgetEventQuery(organizationId: string, widgetId: string, event: 'view' | 'quote', productId: string | null): SqlQuery {
  return {
    text: `INSERT INTO api.widget_analytics (organization_id, widget_id, product_id, event)
           SELECT $1, $2, p.id, $3 FROM (SELECT 1) AS one
           LEFT JOIN api.products AS p ON p.id = $4::uuid AND p.organization_id = $1`,
    values: [organizationId, widgetId, event, productId],
  };
}
