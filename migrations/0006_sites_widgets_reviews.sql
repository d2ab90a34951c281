-- Guest-facing channels: websites (sites, pages, navigation, listings, views), embeddable widgets (booking,
-- pricing, reviews) with their analytics, and reviews.

CREATE TABLE api.sites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  domain text CHECK (domain ~ '^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$'),
  default_language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(default_language)),
  languages text[] NOT NULL DEFAULT '{en}' CHECK (cardinality(languages) > 0),
  theme jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(theme) = 'object'),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  UNIQUE (id, organization_id)
);
CREATE INDEX sites_organization_id_idx ON api.sites (organization_id);
CREATE UNIQUE INDEX sites_domain_unique ON api.sites (domain) WHERE domain IS NOT NULL;
COMMENT ON TABLE api.sites IS 'Websites of the organization.';
COMMENT ON COLUMN api.sites.domain IS 'Custom domain (lowercase host name), unique across Staykit; null = none.';
COMMENT ON COLUMN api.sites.languages IS 'Languages the site is published in.';
COMMENT ON COLUMN api.sites.status IS 'draft or published.';

CREATE TABLE api.site_pages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  site_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  custom_html text NOT NULL DEFAULT '',
  description jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(description)),
  node jsonb NOT NULL DEFAULT '{"type": "root", "children": []}' CHECK (jsonb_typeof(node) = 'object'),
  slug jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(slug)),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
  title jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(title)),
  UNIQUE (id, organization_id),
  CONSTRAINT site_pages_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX site_pages_organization_id_idx ON api.site_pages (organization_id);
CREATE INDEX site_pages_site_id_idx ON api.site_pages (site_id);
COMMENT ON TABLE api.site_pages IS 'Additional pages on a site.';
COMMENT ON COLUMN api.site_pages.site_id IS 'Site of the page (refers to sites.id).';
COMMENT ON COLUMN api.site_pages.custom_html IS 'Custom HTML added to the page.';
COMMENT ON COLUMN api.site_pages.description IS 'Localized description (MultiLanguageString).';
COMMENT ON COLUMN api.site_pages.node IS 'SiteNode: the page content tree, a JSON object {"type", "children", …}.';
COMMENT ON COLUMN api.site_pages.slug IS 'Localized URL path segment (MultiLanguageString).';
COMMENT ON COLUMN api.site_pages.status IS 'draft or published.';
COMMENT ON COLUMN api.site_pages.title IS 'Localized title (MultiLanguageString).';

CREATE TABLE api.site_listings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  site_id uuid NOT NULL,
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT site_listings_unique UNIQUE (site_id, product_id),
  CONSTRAINT site_listings_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT site_listings_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX site_listings_organization_id_idx ON api.site_listings (organization_id);
CREATE INDEX site_listings_product_id_idx ON api.site_listings (product_id);
COMMENT ON TABLE api.site_listings IS 'Units listed on a site, in display order.';

CREATE TABLE api.site_nav_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  site_id uuid NOT NULL,
  site_page_id uuid,
  parent_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  label jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(label)),
  url text,
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT site_nav_items_target CHECK (site_page_id IS NULL OR url IS NULL),
  CONSTRAINT site_nav_items_not_own_parent CHECK (parent_id IS NULL OR parent_id <> id),
  CONSTRAINT site_nav_items_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT site_nav_items_site_page_id_fkey FOREIGN KEY (site_page_id, organization_id)
    REFERENCES api.site_pages (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT site_nav_items_parent_id_fkey FOREIGN KEY (parent_id, organization_id)
    REFERENCES api.site_nav_items (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX site_nav_items_organization_id_idx ON api.site_nav_items (organization_id);
CREATE INDEX site_nav_items_site_id_idx ON api.site_nav_items (site_id);
CREATE INDEX site_nav_items_site_page_id_idx ON api.site_nav_items (site_page_id);
CREATE INDEX site_nav_items_parent_id_idx ON api.site_nav_items (parent_id);
COMMENT ON TABLE api.site_nav_items IS 'Navigation menu of a site: links to a page or to a URL, nested by parent_id.';

CREATE TABLE api.site_views (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  site_id uuid NOT NULL,
  site_page_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  path text NOT NULL DEFAULT '/',
  referrer text,
  visitor_id text,
  country text CHECK (country ~ '^[A-Z]{2}$'),
  UNIQUE (id, organization_id),
  CONSTRAINT site_views_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT site_views_site_page_id_fkey FOREIGN KEY (site_page_id, organization_id)
    REFERENCES api.site_pages (id, organization_id) ON DELETE SET NULL (site_page_id)
);
CREATE INDEX site_views_organization_id_idx ON api.site_views (organization_id);
CREATE INDEX site_views_site_id_idx ON api.site_views (site_id, created_at);
CREATE INDEX site_views_site_page_id_idx ON api.site_views (site_page_id);
COMMENT ON TABLE api.site_views IS 'Page views of sites (analytics, written by the site renderer; read-only).';
COMMENT ON COLUMN api.site_views.visitor_id IS 'Anonymous, rotating visitor identifier (no personal data).';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.widgets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  type text NOT NULL DEFAULT 'booking' CHECK (type IN ('booking', 'search', 'calendar', 'list')),
  language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(language)),
  settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  UNIQUE (id, organization_id)
);
CREATE INDEX widgets_organization_id_idx ON api.widgets (organization_id);
COMMENT ON TABLE api.widgets IS 'Embeddable booking widgets for external websites.';
COMMENT ON COLUMN api.widgets.type IS 'booking, search, calendar or list.';
COMMENT ON COLUMN api.widgets.settings IS 'Appearance and behaviour settings (JSON object).';

CREATE TABLE api.widget_listings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  widget_id uuid NOT NULL,
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT widget_listings_unique UNIQUE (widget_id, product_id),
  CONSTRAINT widget_listings_widget_id_fkey FOREIGN KEY (widget_id, organization_id)
    REFERENCES api.widgets (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT widget_listings_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX widget_listings_organization_id_idx ON api.widget_listings (organization_id);
CREATE INDEX widget_listings_product_id_idx ON api.widget_listings (product_id);
COMMENT ON TABLE api.widget_listings IS 'Units shown in a widget, in display order.';

CREATE TABLE api.widget_analytics (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  widget_id uuid NOT NULL,
  product_id uuid,
  booking_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  event text NOT NULL CHECK (event IN ('view', 'search', 'quote', 'checkout', 'booking')),
  session_id text,
  UNIQUE (id, organization_id),
  CONSTRAINT widget_analytics_widget_id_fkey FOREIGN KEY (widget_id, organization_id)
    REFERENCES api.widgets (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT widget_analytics_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE SET NULL (product_id),
  CONSTRAINT widget_analytics_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE SET NULL (booking_id)
);
CREATE INDEX widget_analytics_organization_id_idx ON api.widget_analytics (organization_id);
CREATE INDEX widget_analytics_widget_id_idx ON api.widget_analytics (widget_id, created_at);
CREATE INDEX widget_analytics_product_id_idx ON api.widget_analytics (product_id);
CREATE INDEX widget_analytics_booking_id_idx ON api.widget_analytics (booking_id);
COMMENT ON TABLE api.widget_analytics IS 'Funnel events of widgets: view, search, quote, checkout, booking (read-only).';

CREATE TABLE api.pricing_widgets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(language)),
  settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  UNIQUE (id, organization_id),
  CONSTRAINT pricing_widgets_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX pricing_widgets_organization_id_idx ON api.pricing_widgets (organization_id);
CREATE INDEX pricing_widgets_product_id_idx ON api.pricing_widgets (product_id);
COMMENT ON TABLE api.pricing_widgets IS 'Embeddable price tables of a unit (or of all units when product_id is null).';

-- Bookings record the site or widget they came through.
ALTER TABLE api.bookings
  ADD CONSTRAINT bookings_site_id_fkey FOREIGN KEY (site_id, organization_id)
    REFERENCES api.sites (id, organization_id) ON DELETE SET NULL (site_id),
  ADD CONSTRAINT bookings_widget_id_fkey FOREIGN KEY (widget_id, organization_id)
    REFERENCES api.widgets (id, organization_id) ON DELETE SET NULL (widget_id);

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  booking_id uuid,
  contact_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  author_name text NOT NULL CHECK (btrim(author_name) <> ''),
  rating integer NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  language text CHECK (staykit_internal.is_language(language)),
  source text NOT NULL DEFAULT 'direct' CHECK (source IN ('direct', 'airbnb', 'booking.com', 'vrbo', 'google', 'other')),
  published boolean NOT NULL DEFAULT true,
  reviewed_at timestamptz NOT NULL DEFAULT now(),
  response text,
  responded_at timestamptz,
  fts tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', author_name || ' ' || title || ' ' || body || ' ' || coalesce(response, ''))
  ) STORED,
  UNIQUE (id, organization_id),
  CONSTRAINT reviews_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE SET NULL (booking_id),
  CONSTRAINT reviews_contact_id_fkey FOREIGN KEY (contact_id, organization_id)
    REFERENCES api.contacts (id, organization_id) ON DELETE SET NULL (contact_id)
);
CREATE INDEX reviews_organization_id_idx ON api.reviews (organization_id);
CREATE INDEX reviews_booking_id_idx ON api.reviews (booking_id);
CREATE INDEX reviews_contact_id_idx ON api.reviews (contact_id);
CREATE INDEX reviews_fts_idx ON api.reviews USING gin (fts);
COMMENT ON TABLE api.reviews IS 'Guest reviews, collected directly or imported from other platforms.';
COMMENT ON COLUMN api.reviews.rating IS 'Rating from 1 to 5.';
COMMENT ON COLUMN api.reviews.source IS 'direct, airbnb, booking.com, vrbo, google or other.';
COMMENT ON COLUMN api.reviews.published IS 'Shown on review widgets and sites.';
COMMENT ON COLUMN api.reviews.response IS 'Public response of the host, or null.';

CREATE TABLE api.review_products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  review_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT review_products_unique UNIQUE (review_id, product_id),
  CONSTRAINT review_products_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT review_products_review_id_fkey FOREIGN KEY (review_id, organization_id)
    REFERENCES api.reviews (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX review_products_organization_id_idx ON api.review_products (organization_id);
CREATE INDEX review_products_product_id_idx ON api.review_products (product_id);
COMMENT ON TABLE api.review_products IS 'Link between reviews and products.';
COMMENT ON COLUMN api.review_products.product_id IS 'Reviewed unit (refers to products.id).';
COMMENT ON COLUMN api.review_products.review_id IS 'Review (refers to reviews.id).';

CREATE TABLE api.review_widgets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  color_background text NOT NULL DEFAULT '#ffffff' CHECK (staykit_internal.is_color(color_background)),
  color_primary text NOT NULL DEFAULT '#4f46e5' CHECK (staykit_internal.is_color(color_primary)),
  color_text text NOT NULL DEFAULT '#111827' CHECK (staykit_internal.is_color(color_text)),
  font text,
  language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(language)),
  layout text NOT NULL DEFAULT 'grid' CHECK (layout IN ('grid', 'list', 'carousel')),
  number_of_items integer NOT NULL DEFAULT 6 CHECK (number_of_items BETWEEN 1 AND 100),
  show_branding boolean NOT NULL DEFAULT true,
  title text NOT NULL DEFAULT '',
  fts tsvector GENERATED ALWAYS AS (to_tsvector('simple', title)) STORED,
  UNIQUE (id, organization_id)
);
CREATE INDEX review_widgets_organization_id_idx ON api.review_widgets (organization_id);
COMMENT ON TABLE api.review_widgets IS 'Embeddable widgets showing published reviews.';
COMMENT ON COLUMN api.review_widgets.color_background IS 'Background color code.';
COMMENT ON COLUMN api.review_widgets.color_primary IS 'Primary color code.';
COMMENT ON COLUMN api.review_widgets.color_text IS 'Text color code.';
COMMENT ON COLUMN api.review_widgets.font IS 'Font family, or null for the default.';
COMMENT ON COLUMN api.review_widgets.fts IS 'Full-text search over the title.';
COMMENT ON COLUMN api.review_widgets.language IS 'Language of the widget (BCP 47).';
COMMENT ON COLUMN api.review_widgets.layout IS 'grid, list or carousel.';
COMMENT ON COLUMN api.review_widgets.number_of_items IS 'Number of reviews shown (1..100).';
COMMENT ON COLUMN api.review_widgets.show_branding IS 'Show the Staykit branding.';
COMMENT ON COLUMN api.review_widgets.title IS 'Title of the widget.';

CREATE TABLE api.review_widget_listings (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  review_widget_id uuid NOT NULL,
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT review_widget_listings_unique UNIQUE (review_widget_id, product_id),
  CONSTRAINT review_widget_listings_review_widget_id_fkey FOREIGN KEY (review_widget_id, organization_id)
    REFERENCES api.review_widgets (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT review_widget_listings_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX review_widget_listings_organization_id_idx ON api.review_widget_listings (organization_id);
CREATE INDEX review_widget_listings_product_id_idx ON api.review_widget_listings (product_id);
COMMENT ON TABLE api.review_widget_listings IS 'Units whose reviews a review widget shows.';
