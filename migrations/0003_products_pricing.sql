-- Units (products) and everything that prices or segments them: capacity groups and limits, attributes,
-- rate configurations, seasons, services (extras and booking-form fields), taxes, per-date prices, coupons.

CREATE TABLE api.products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  ac_id text,
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  parent_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  approximate_address text NOT NULL DEFAULT '',
  approximate_coordinates jsonb CHECK (staykit_internal.is_coordinates(approximate_coordinates)),
  cancel_after_initial_payment_error boolean NOT NULL DEFAULT false,
  confirm_after_initial_payment boolean NOT NULL DEFAULT false,
  confirmation_message jsonb NOT NULL DEFAULT '{"default": ""}'
    CHECK (staykit_internal.is_multi_language_string(confirmation_message)),
  cooldown_time integer NOT NULL DEFAULT 0 CHECK (cooldown_time >= 0),
  cta jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(cta) = 'object'),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  description jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(description)),
  exact_address text NOT NULL DEFAULT '',
  exact_coordinates jsonb CHECK (staykit_internal.is_coordinates(exact_coordinates)),
  hide_exact_address boolean NOT NULL DEFAULT false,
  ical_export_secret text NOT NULL DEFAULT staykit_internal.random_token(32) CHECK (length(ical_export_secret) >= 16),
  ical_export_secret_no_details text NOT NULL DEFAULT staykit_internal.random_token(32)
    CHECK (length(ical_export_secret_no_details) >= 16),
  images json NOT NULL DEFAULT '[]' CHECK (json_typeof(images) = 'array'),
  interaction text NOT NULL DEFAULT 'request' CHECK (interaction IN ('request', 'book')),
  latest_arrival_time time,
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  price_breakdown_specificity text NOT NULL DEFAULT 'combined'
    CHECK (price_breakdown_specificity IN ('combined', 'detailed')),
  rent_period text NOT NULL CHECK (rent_period IN ('daily', 'nightly')),
  rent_pricing_definition text NOT NULL DEFAULT 'configurations'
    CHECK (rent_pricing_definition IN ('configurations', 'services')),
  request_status text NOT NULL DEFAULT 'TENTATIVE' CHECK (request_status IN ('CANCELLED', 'TENTATIVE', 'CONFIRMED')),
  timezone text NOT NULL CHECK (staykit_internal.is_time_zone(timezone)),
  fts tsvector GENERATED ALWAYS AS (
    jsonb_to_tsvector('simple', name, '["string"]')
    || jsonb_to_tsvector('simple', description, '["string"]')
    || to_tsvector('simple', approximate_address || ' ' || coalesce(ac_id, ''))
  ) STORED,
  UNIQUE (id, organization_id),
  CONSTRAINT products_not_own_parent CHECK (parent_id IS NULL OR parent_id <> id),
  CONSTRAINT products_parent_id_fkey FOREIGN KEY (parent_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE SET NULL (parent_id)
);
CREATE INDEX products_organization_id_idx ON api.products (organization_id);
CREATE INDEX products_parent_id_idx ON api.products (parent_id);
CREATE INDEX products_fts_idx ON api.products USING gin (fts);
CREATE UNIQUE INDEX products_ac_id_unique ON api.products (organization_id, ac_id) WHERE ac_id IS NOT NULL;

-- Secrets: generated when absent, and regenerated when an UPDATE sets them to NULL (rotation).
CREATE FUNCTION staykit_internal.products_fill_secrets() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.ical_export_secret := coalesce(NEW.ical_export_secret, staykit_internal.random_token(32));
  NEW.ical_export_secret_no_details := coalesce(NEW.ical_export_secret_no_details, staykit_internal.random_token(32));
  RETURN NEW;
END
$$;
CREATE TRIGGER products_fill_secrets BEFORE INSERT OR UPDATE ON api.products
  FOR EACH ROW EXECUTE FUNCTION staykit_internal.products_fill_secrets();

COMMENT ON TABLE api.products IS 'Units that can be booked individually.';
COMMENT ON COLUMN api.products.ac_id IS 'Identifier for products imported from an external availability calendar service.';
COMMENT ON COLUMN api.products.organization_id IS 'Organization owning the unit.';
COMMENT ON COLUMN api.products.parent_id IS 'Parent unit (refers to products.id).';
COMMENT ON COLUMN api.products.deleted_at IS 'When the unit was deleted (soft delete; null while active).';
COMMENT ON COLUMN api.products.approximate_address IS 'Address shown to customers before confirmation.';
COMMENT ON COLUMN api.products.approximate_coordinates IS 'Approximate location {"lat", "lng"}.';
COMMENT ON COLUMN api.products.cancel_after_initial_payment_error IS 'Cancel the booking when its initial payment fails.';
COMMENT ON COLUMN api.products.confirm_after_initial_payment IS
  'Auto-confirm after the initial payment; applies only when interaction is request.';
COMMENT ON COLUMN api.products.confirmation_message IS
  'Shown to the customer after submitting a booking from a widget or website (MultiLanguageString).';
COMMENT ON COLUMN api.products.cooldown_time IS
  'Minimum days between bookings; applies only when rent_pricing_definition is services.';
COMMENT ON COLUMN api.products.cta IS 'Call to action at the bottom of the booking form.';
COMMENT ON COLUMN api.products.currency IS 'Currency in which bookings are made (ISO 4217).';
COMMENT ON COLUMN api.products.description IS 'Localized description (MultiLanguageString).';
COMMENT ON COLUMN api.products.exact_address IS 'Exact address of the unit.';
COMMENT ON COLUMN api.products.exact_coordinates IS 'Exact location {"lat", "lng"}.';
COMMENT ON COLUMN api.products.fts IS 'Full-text search over name, description and approximate address.';
COMMENT ON COLUMN api.products.hide_exact_address IS 'Hides the exact address from customers until bookings are confirmed.';
COMMENT ON COLUMN api.products.ical_export_secret IS
  'Secret used to build iCal feed URLs; generated when absent, regenerated when set to null.';
COMMENT ON COLUMN api.products.ical_export_secret_no_details IS
  'Secret for iCal feed URLs without booking details; generated when absent, regenerated when set to null.';
COMMENT ON COLUMN api.products.images IS 'List of images.';
COMMENT ON COLUMN api.products.interaction IS 'request (the owner confirms) or book (instantly confirmed).';
COMMENT ON COLUMN api.products.latest_arrival_time IS 'Latest arrival time on the check-in day.';
COMMENT ON COLUMN api.products.name IS 'Localized name (MultiLanguageString).';
COMMENT ON COLUMN api.products.price_breakdown_specificity IS 'combined or detailed price breakdown for customers.';
COMMENT ON COLUMN api.products.rent_period IS 'daily or nightly.';
COMMENT ON COLUMN api.products.rent_pricing_definition IS 'Rent priced by configurations or by services.';
COMMENT ON COLUMN api.products.request_status IS
  'Status of new bookings (CANCELLED, TENTATIVE, CONFIRMED); applies only when interaction is request.';
COMMENT ON COLUMN api.products.timezone IS 'Time zone of the unit, e.g. Europe/Amsterdam.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.capacity_groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  description jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(description)),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  name_singular jsonb NOT NULL DEFAULT '{"default": ""}'
    CHECK (staykit_internal.is_multi_language_string(name_singular)),
  "order" integer NOT NULL DEFAULT 0,
  requires_explicit_input boolean NOT NULL DEFAULT false,
  type text NOT NULL DEFAULT 'manual' CHECK (type IN ('manual', 'sum')),
  UNIQUE (id, organization_id)
);
CREATE INDEX capacity_groups_organization_id_idx ON api.capacity_groups (organization_id);
COMMENT ON TABLE api.capacity_groups IS
  'Distinct groups that can occupy units (for example adults, children, pets), used for separate prices and limits.';
COMMENT ON COLUMN api.capacity_groups.organization_id IS 'Organization in which the group is defined.';
COMMENT ON COLUMN api.capacity_groups.description IS 'Localized description (MultiLanguageString).';
COMMENT ON COLUMN api.capacity_groups.name IS 'Localized plural name (MultiLanguageString).';
COMMENT ON COLUMN api.capacity_groups.name_singular IS 'Localized singular name (MultiLanguageString).';
COMMENT ON COLUMN api.capacity_groups."order" IS 'Display order.';
COMMENT ON COLUMN api.capacity_groups.requires_explicit_input IS 'Whether guests must fill in the capacity before booking.';
COMMENT ON COLUMN api.capacity_groups.type IS 'manual (entered by guests) or sum (accumulates other groups).';

CREATE TABLE api.capacity_group_dependencies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  accumulator_id uuid NOT NULL,
  element_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT capacity_group_dependencies_unique UNIQUE (accumulator_id, element_id),
  CONSTRAINT capacity_group_dependencies_not_self CHECK (accumulator_id <> element_id),
  CONSTRAINT capacity_group_dependencies_accumulator_id_fkey FOREIGN KEY (accumulator_id, organization_id)
    REFERENCES api.capacity_groups (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT capacity_group_dependencies_element_id_fkey FOREIGN KEY (element_id, organization_id)
    REFERENCES api.capacity_groups (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX capacity_group_dependencies_organization_id_idx ON api.capacity_group_dependencies (organization_id);
CREATE INDEX capacity_group_dependencies_element_id_idx ON api.capacity_group_dependencies (element_id);
COMMENT ON TABLE api.capacity_group_dependencies IS
  'Dependencies between occupancy groups. When booking, the value of the group referenced by accumulator_id is set '
  'to the sum of the values of the groups referenced by element_id.';
COMMENT ON COLUMN api.capacity_group_dependencies.accumulator_id IS 'The accumulating group (refers to capacity_groups.id).';
COMMENT ON COLUMN api.capacity_group_dependencies.element_id IS 'The accumulated group (refers to capacity_groups.id).';

CREATE TABLE api.capacities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  capacity_group_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  min integer NOT NULL DEFAULT 0 CHECK (min >= 0),
  max integer CHECK (max >= 0),
  UNIQUE (id, organization_id),
  CONSTRAINT capacities_min_max CHECK (max IS NULL OR min <= max),
  CONSTRAINT capacities_product_group_unique UNIQUE (product_id, capacity_group_id),
  CONSTRAINT capacities_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT capacities_capacity_group_id_fkey FOREIGN KEY (capacity_group_id, organization_id)
    REFERENCES api.capacity_groups (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX capacities_organization_id_idx ON api.capacities (organization_id);
CREATE INDEX capacities_capacity_group_id_idx ON api.capacities (capacity_group_id);
COMMENT ON TABLE api.capacities IS 'Occupancy limits per unit and capacity group.';
COMMENT ON COLUMN api.capacities.min IS 'Minimum number for the group (0 = optional).';
COMMENT ON COLUMN api.capacities.max IS 'Maximum number for the group; null = no maximum.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.attributes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  "order" integer NOT NULL DEFAULT 0,
  type text NOT NULL DEFAULT 'single-select' CHECK (type IN ('single-select', 'multi-select')),
  UNIQUE (id, organization_id)
);
CREATE INDEX attributes_organization_id_idx ON api.attributes (organization_id);
COMMENT ON TABLE api.attributes IS 'Attributes used to segment and filter units.';
COMMENT ON COLUMN api.attributes.organization_id IS 'Organization in which the attribute is defined.';
COMMENT ON COLUMN api.attributes.name IS 'Localized name (MultiLanguageString).';
COMMENT ON COLUMN api.attributes."order" IS 'Display order on widgets and websites.';
COMMENT ON COLUMN api.attributes.type IS 'single-select or multi-select.';

CREATE TABLE api.attribute_options (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  attribute_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT attribute_options_attribute_id_fkey FOREIGN KEY (attribute_id, organization_id)
    REFERENCES api.attributes (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX attribute_options_organization_id_idx ON api.attribute_options (organization_id);
CREATE INDEX attribute_options_attribute_id_idx ON api.attribute_options (attribute_id);
COMMENT ON TABLE api.attribute_options IS 'Possible options per attribute.';
COMMENT ON COLUMN api.attribute_options.attribute_id IS 'Attribute the option belongs to (refers to attributes.id).';
COMMENT ON COLUMN api.attribute_options.name IS 'Localized name (MultiLanguageString).';
COMMENT ON COLUMN api.attribute_options."order" IS
  'Position of the option in the option list on widgets and websites.';

CREATE TABLE api.product_attribute_options (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  attribute_option_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT product_attribute_options_unique UNIQUE (product_id, attribute_option_id),
  CONSTRAINT product_attribute_options_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_attribute_options_attribute_option_id_fkey FOREIGN KEY (attribute_option_id, organization_id)
    REFERENCES api.attribute_options (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_attribute_options_organization_id_idx ON api.product_attribute_options (organization_id);
CREATE INDEX product_attribute_options_attribute_option_id_idx ON api.product_attribute_options (attribute_option_id);
COMMENT ON TABLE api.product_attribute_options IS 'Attribute options that apply to a unit.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.product_configurations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  check_in_days boolean[] NOT NULL DEFAULT '{t,t,t,t,t,t,t}' CHECK (staykit_internal.is_weekday_mask(check_in_days)),
  checkout_days boolean[] NOT NULL DEFAULT '{t,t,t,t,t,t,t}' CHECK (staykit_internal.is_weekday_mask(checkout_days)),
  color text NOT NULL DEFAULT '#4f46e5' CHECK (staykit_internal.is_color(color)),
  cooldown_time integer NOT NULL DEFAULT 0 CHECK (cooldown_time >= 0),
  early_bird_adjustments jsonb NOT NULL DEFAULT '[]'
    CHECK (staykit_internal.is_adjustment_list(early_bird_adjustments, 'min_advance')),
  intervals datemultirange NOT NULL DEFAULT '{}',
  last_minute_adjustments jsonb NOT NULL DEFAULT '[]'
    CHECK (staykit_internal.is_adjustment_list(last_minute_adjustments, 'max_advance')),
  long_rent_adjustments jsonb NOT NULL DEFAULT '[]'
    CHECK (staykit_internal.is_adjustment_list(long_rent_adjustments, 'min_duration')),
  max_advance integer NOT NULL DEFAULT 0 CHECK (max_advance >= 0),
  max_duration integer NOT NULL DEFAULT 0 CHECK (max_duration >= 0),
  min_advance integer NOT NULL DEFAULT 0 CHECK (min_advance >= 0),
  min_duration integer NOT NULL DEFAULT 1 CHECK (min_duration >= 0),
  name jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(name)),
  "order" integer NOT NULL DEFAULT 0,
  rates jsonb NOT NULL DEFAULT '[]' CHECK (staykit_internal.is_rate_table(rates)),
  fts tsvector GENERATED ALWAYS AS (jsonb_to_tsvector('simple', name, '["string"]')) STORED,
  UNIQUE (id, organization_id),
  CONSTRAINT product_configurations_min_duration_le_max CHECK (max_duration = 0 OR min_duration <= max_duration),
  CONSTRAINT product_configurations_min_advance_le_max CHECK (max_advance = 0 OR min_advance <= max_advance),
  CONSTRAINT product_configurations_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_configurations_organization_id_idx ON api.product_configurations (organization_id);
CREATE INDEX product_configurations_product_id_idx ON api.product_configurations (product_id);
CREATE INDEX product_configurations_fts_idx ON api.product_configurations USING gin (fts);
COMMENT ON TABLE api.product_configurations IS 'Rate and availability configurations, applied per unit on multiple intervals.';
COMMENT ON COLUMN api.product_configurations.product_id IS 'Related unit (refers to products.id).';
COMMENT ON COLUMN api.product_configurations.check_in_days IS
  'Days of the week on which check-in is possible: 7 booleans, index 0 = Monday.';
COMMENT ON COLUMN api.product_configurations.checkout_days IS
  'Days of the week on which check-out is possible: 7 booleans, index 0 = Monday.';
COMMENT ON COLUMN api.product_configurations.color IS 'Distinguishes the configuration from others (hex color).';
COMMENT ON COLUMN api.product_configurations.cooldown_time IS 'Minimum days between bookings.';
COMMENT ON COLUMN api.product_configurations.early_bird_adjustments IS
  'Rate adjustments for early bookings: [{"min_advance", "percentage"}].';
COMMENT ON COLUMN api.product_configurations.fts IS 'Full-text search over the name.';
COMMENT ON COLUMN api.product_configurations.intervals IS 'Date ranges on which the configuration applies.';
COMMENT ON COLUMN api.product_configurations.last_minute_adjustments IS
  'Rate adjustments for last-minute bookings: [{"max_advance", "percentage"}].';
COMMENT ON COLUMN api.product_configurations.long_rent_adjustments IS
  'Rate adjustments for long bookings: [{"min_duration", "percentage"}].';
COMMENT ON COLUMN api.product_configurations.max_advance IS 'Maximum days between booking and arrival (0 = no maximum).';
COMMENT ON COLUMN api.product_configurations.max_duration IS 'Maximum booking duration in days (0 = no maximum).';
COMMENT ON COLUMN api.product_configurations.min_advance IS 'Minimum days between booking and arrival.';
COMMENT ON COLUMN api.product_configurations.min_duration IS 'Minimum booking duration in days.';
COMMENT ON COLUMN api.product_configurations.name IS 'Localized name (MultiLanguageString).';
COMMENT ON COLUMN api.product_configurations."order" IS 'Priority: on overlapping intervals the highest order wins.';
COMMENT ON COLUMN api.product_configurations.rates IS
  'Base rates: [{"duration", "occupancy", "rate"}], rate in minor units per night.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.seasons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  color text NOT NULL DEFAULT '#f59e0b' CHECK (staykit_internal.is_color(color)),
  intervals datemultirange NOT NULL DEFAULT '{}',
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id)
);
CREATE INDEX seasons_organization_id_idx ON api.seasons (organization_id);
COMMENT ON TABLE api.seasons IS 'Named sets of date ranges (high season, holidays) for planning configurations and prices.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  description jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(description)),
  type text NOT NULL DEFAULT 'fee'
    CHECK (type IN ('fee', 'text', 'email', 'phone', 'number', 'checkbox', 'select', 'quantity')),
  pricing jsonb CHECK (staykit_internal.is_service_pricing(pricing)),
  required boolean NOT NULL DEFAULT false,
  max_quantity integer CHECK (max_quantity > 0),
  "order" integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  UNIQUE (id, organization_id)
);
CREATE INDEX services_organization_id_idx ON api.services (organization_id);
COMMENT ON TABLE api.services IS 'Extras and booking-form fields; priced services become line items.';
COMMENT ON COLUMN api.services.type IS 'fee, text, email, phone, number, checkbox, select or quantity.';
COMMENT ON COLUMN api.services.pricing IS
  'Price {"per": stay|night|guest|guest_night|unit, "amount": minor units, "deposit"?}; null = free.';
COMMENT ON COLUMN api.services.required IS 'Guests must fill in the field / take the service.';
COMMENT ON COLUMN api.services.max_quantity IS 'Upper bound for quantity services; null = no bound.';
COMMENT ON COLUMN api.services.active IS 'Inactive services are not offered to guests.';

CREATE TABLE api.service_options (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  service_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  pricing jsonb CHECK (staykit_internal.is_service_pricing(pricing)),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT service_options_service_id_fkey FOREIGN KEY (service_id, organization_id)
    REFERENCES api.services (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX service_options_organization_id_idx ON api.service_options (organization_id);
CREATE INDEX service_options_service_id_idx ON api.service_options (service_id);
COMMENT ON TABLE api.service_options IS 'Choices of a select service; an option may carry its own price.';

CREATE TABLE api.service_payment_moments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  service_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  moment jsonb NOT NULL DEFAULT '{"type": "confirmation", "offset": 0}' CHECK (staykit_internal.is_moment(moment)),
  value jsonb NOT NULL DEFAULT '{"type": "percentage", "value": 100}' CHECK (staykit_internal.is_payment_value(value)),
  UNIQUE (id, organization_id),
  CONSTRAINT service_payment_moments_service_id_fkey FOREIGN KEY (service_id, organization_id)
    REFERENCES api.services (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX service_payment_moments_organization_id_idx ON api.service_payment_moments (organization_id);
CREATE INDEX service_payment_moments_service_id_idx ON api.service_payment_moments (service_id);
COMMENT ON TABLE api.service_payment_moments IS 'Payment schedule per service.';
COMMENT ON COLUMN api.service_payment_moments.service_id IS 'Service the schedule belongs to (refers to services.id).';
COMMENT ON COLUMN api.service_payment_moments.moment IS
  'When the payment is due: {"type": check-in|checkout|confirmation|on-site|request, "offset": integer days}.';
COMMENT ON COLUMN api.service_payment_moments.value IS
  'Value of the payment: {"type": "percentage", "value": 0..100} or {"type": "fixed", "value": minor units}.';

CREATE TABLE api.product_services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  service_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT product_services_unique UNIQUE (product_id, service_id),
  CONSTRAINT product_services_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_services_service_id_fkey FOREIGN KEY (service_id, organization_id)
    REFERENCES api.services (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_services_organization_id_idx ON api.product_services (organization_id);
CREATE INDEX product_services_service_id_idx ON api.product_services (service_id);
COMMENT ON TABLE api.product_services IS 'Services offered on a unit.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.taxes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  percentage numeric(7, 4) NOT NULL CHECK (percentage >= 0 AND percentage <= 100),
  inclusive boolean NOT NULL DEFAULT false,
  applies_to text NOT NULL DEFAULT 'all' CHECK (applies_to IN ('rent', 'services', 'all')),
  UNIQUE (id, organization_id)
);
CREATE INDEX taxes_organization_id_idx ON api.taxes (organization_id);
COMMENT ON TABLE api.taxes IS 'Taxes (VAT, tourist tax) linked to units by product_taxes.';
COMMENT ON COLUMN api.taxes.percentage IS 'Tax rate in percent, 0..100.';
COMMENT ON COLUMN api.taxes.inclusive IS 'True: already included in prices (reported); false: added on top.';
COMMENT ON COLUMN api.taxes.applies_to IS 'rent, services or all.';

CREATE TABLE api.product_taxes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  tax_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT product_taxes_unique UNIQUE (product_id, tax_id),
  CONSTRAINT product_taxes_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_taxes_tax_id_fkey FOREIGN KEY (tax_id, organization_id)
    REFERENCES api.taxes (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_taxes_organization_id_idx ON api.product_taxes (organization_id);
CREATE INDEX product_taxes_tax_id_idx ON api.product_taxes (tax_id);
COMMENT ON TABLE api.product_taxes IS 'Taxes charged on a unit.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.price_calendar_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  rate integer CHECK (rate >= 0),
  min_duration integer CHECK (min_duration >= 0),
  closed boolean NOT NULL DEFAULT false,
  UNIQUE (id, organization_id),
  CONSTRAINT price_calendar_entries_product_date_unique UNIQUE (product_id, date),
  CONSTRAINT price_calendar_entries_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX price_calendar_entries_organization_id_idx ON api.price_calendar_entries (organization_id);
COMMENT ON TABLE api.price_calendar_entries IS
  'Per-date overrides of a unit''s configuration: nightly rate (minor units), minimum stay, or closed.';

CREATE TABLE api.pricelabs_pricing (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  date date NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  price integer NOT NULL CHECK (price >= 0),
  min_stay integer CHECK (min_stay >= 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  synced_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT pricelabs_pricing_product_date_unique UNIQUE (product_id, date),
  CONSTRAINT pricelabs_pricing_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX pricelabs_pricing_organization_id_idx ON api.pricelabs_pricing (organization_id);
COMMENT ON TABLE api.pricelabs_pricing IS 'Dynamic nightly prices pushed by the PriceLabs integration, per unit and date.';
COMMENT ON COLUMN api.pricelabs_pricing.price IS 'Nightly price in minor units.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.coupons (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  code text NOT NULL CHECK (code ~ '^[^\s]{1,64}$'),
  definition jsonb NOT NULL CHECK (staykit_internal.is_coupon_definition(definition)),
  description text NOT NULL DEFAULT '',
  quota integer CHECK (quota >= 0),
  scope text NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'product', 'service', 'rent')),
  stackable boolean NOT NULL DEFAULT false,
  fts tsvector GENERATED ALWAYS AS (to_tsvector('simple', code || ' ' || description)) STORED,
  UNIQUE (id, organization_id)
);
CREATE INDEX coupons_organization_id_idx ON api.coupons (organization_id);
CREATE UNIQUE INDEX coupons_code_unique ON api.coupons (organization_id, lower(code)) WHERE deleted_at IS NULL;
CREATE INDEX coupons_fts_idx ON api.coupons USING gin (fts);
COMMENT ON TABLE api.coupons IS 'Codes guests can enter for additional discounts. DELETE is a soft delete (sets deleted_at).';
COMMENT ON COLUMN api.coupons.deleted_at IS 'When the coupon was deleted (null while active).';
COMMENT ON COLUMN api.coupons.code IS 'Code guests enter; matched case-insensitively, unique among active coupons.';
COMMENT ON COLUMN api.coupons.definition IS
  'Discount: {"type": percentage|fixed, "value", "min_duration"?, "booking_from"?, "booking_until"?, '
  '"stay_from"?, "stay_until"?}.';
COMMENT ON COLUMN api.coupons.description IS 'Internal description.';
COMMENT ON COLUMN api.coupons.fts IS 'Full-text search over code and description.';
COMMENT ON COLUMN api.coupons.quota IS 'Maximum number of uses; null = unlimited.';
COMMENT ON COLUMN api.coupons.scope IS
  'global (total), rent (rent only), product (only coupon_products), service (only coupon_services).';
COMMENT ON COLUMN api.coupons.stackable IS 'Whether the coupon can be combined with other coupons.';

CREATE TABLE api.coupon_products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  coupon_id uuid NOT NULL,
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT coupon_products_unique UNIQUE (coupon_id, product_id),
  CONSTRAINT coupon_products_coupon_id_fkey FOREIGN KEY (coupon_id, organization_id)
    REFERENCES api.coupons (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT coupon_products_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX coupon_products_organization_id_idx ON api.coupon_products (organization_id);
CREATE INDEX coupon_products_product_id_idx ON api.coupon_products (product_id);
COMMENT ON TABLE api.coupon_products IS 'Units a coupon applies to; only checked when the coupon scope is product.';

CREATE TABLE api.coupon_services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  coupon_id uuid NOT NULL,
  service_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT coupon_services_unique UNIQUE (coupon_id, service_id),
  CONSTRAINT coupon_services_coupon_id_fkey FOREIGN KEY (coupon_id, organization_id)
    REFERENCES api.coupons (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT coupon_services_service_id_fkey FOREIGN KEY (service_id, organization_id)
    REFERENCES api.services (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX coupon_services_organization_id_idx ON api.coupon_services (organization_id);
CREATE INDEX coupon_services_service_id_idx ON api.coupon_services (service_id);
COMMENT ON TABLE api.coupon_services IS
  'Defines for which services a coupon applies. It is only checked when the coupon scope is service.';
