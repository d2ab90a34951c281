-- Money: invoices and their lines (with taxes), payments and refunds of bookings, and the organization's own
-- Staykit subscription (Paddle). Amounts are integers in minor units of the row's currency.

CREATE TABLE api.invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  booking_id uuid,
  contact_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  number text NOT NULL CHECK (btrim(number) <> ''),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'issued', 'paid', 'void')),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  total integer NOT NULL DEFAULT 0,
  issued_at timestamptz,
  due_at timestamptz,
  paid_at timestamptz,
  notes text NOT NULL DEFAULT '',
  UNIQUE (id, organization_id),
  CONSTRAINT invoices_number_unique UNIQUE (organization_id, number),
  CONSTRAINT invoices_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE RESTRICT,
  CONSTRAINT invoices_contact_id_fkey FOREIGN KEY (contact_id, organization_id)
    REFERENCES api.contacts (id, organization_id) ON DELETE SET NULL (contact_id)
);
CREATE INDEX invoices_booking_id_idx ON api.invoices (booking_id);
CREATE INDEX invoices_contact_id_idx ON api.invoices (contact_id);
COMMENT ON TABLE api.invoices IS
  'Invoices of bookings. A booking with invoices cannot be deleted (void the invoice instead).';
COMMENT ON COLUMN api.invoices.number IS 'Invoice number, unique per organization.';
COMMENT ON COLUMN api.invoices.status IS 'draft, issued, paid or void.';
COMMENT ON COLUMN api.invoices.total IS 'Total in minor units (sum of its fee lines).';

CREATE TABLE api.line_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  booking_id uuid NOT NULL,
  invoice_id uuid,
  service_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  amount integer NOT NULL,
  fee_type text NOT NULL DEFAULT 'fee' CHECK (fee_type IN ('fee', 'deposit')),
  item_type text NOT NULL DEFAULT 'fee'
    CHECK (item_type IN ('rent', 'fee', 'service', 'adjustment', 'discount', 'coupon', 'tax', 'other')),
  name jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(name)),
  quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
  UNIQUE (id, organization_id),
  CONSTRAINT line_items_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT line_items_invoice_id_fkey FOREIGN KEY (invoice_id, organization_id)
    REFERENCES api.invoices (id, organization_id) ON DELETE SET NULL (invoice_id),
  CONSTRAINT line_items_service_id_fkey FOREIGN KEY (service_id, organization_id)
    REFERENCES api.services (id, organization_id) ON DELETE SET NULL (service_id)
);
CREATE INDEX line_items_organization_id_idx ON api.line_items (organization_id);
CREATE INDEX line_items_booking_id_idx ON api.line_items (booking_id);
CREATE INDEX line_items_invoice_id_idx ON api.line_items (invoice_id);
CREATE INDEX line_items_service_id_idx ON api.line_items (service_id);
COMMENT ON TABLE api.line_items IS 'Invoice lines for booking invoices.';
COMMENT ON COLUMN api.line_items.booking_id IS 'Related booking (refers to bookings.id).';
COMMENT ON COLUMN api.line_items.invoice_id IS 'Related invoice (refers to invoices.id), or null.';
COMMENT ON COLUMN api.line_items.service_id IS 'Related service (refers to services.id), or null.';
COMMENT ON COLUMN api.line_items.amount IS 'Total of the line in minor units (negative for discounts).';
COMMENT ON COLUMN api.line_items.fee_type IS 'fee (part of the total) or deposit (refundable, reported apart).';
COMMENT ON COLUMN api.line_items.item_type IS 'rent, fee, service, adjustment, discount, coupon, tax or other.';
COMMENT ON COLUMN api.line_items.name IS 'Localized name (MultiLanguageString).';
COMMENT ON COLUMN api.line_items.quantity IS 'Number of units (> 0).';

CREATE TABLE api.line_item_taxes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  line_item_id uuid NOT NULL,
  tax_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  percentage numeric(7, 4) NOT NULL CHECK (percentage >= 0 AND percentage <= 100),
  inclusive boolean NOT NULL DEFAULT false,
  amount integer NOT NULL,
  UNIQUE (id, organization_id),
  CONSTRAINT line_item_taxes_line_item_id_fkey FOREIGN KEY (line_item_id, organization_id)
    REFERENCES api.line_items (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT line_item_taxes_tax_id_fkey FOREIGN KEY (tax_id, organization_id)
    REFERENCES api.taxes (id, organization_id) ON DELETE SET NULL (tax_id)
);
CREATE INDEX line_item_taxes_organization_id_idx ON api.line_item_taxes (organization_id);
CREATE INDEX line_item_taxes_line_item_id_idx ON api.line_item_taxes (line_item_id);
CREATE INDEX line_item_taxes_tax_id_idx ON api.line_item_taxes (tax_id);
COMMENT ON TABLE api.line_item_taxes IS
  'Taxes computed on a line item, with the name and rate copied at booking time (the tax may change later).';
COMMENT ON COLUMN api.line_item_taxes.amount IS 'Tax amount in minor units, rounded per line.';

CREATE TABLE api.payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  booking_id uuid,
  invoice_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  amount integer NOT NULL CHECK (amount > 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid', 'failed', 'cancelled', 'expired')),
  method text NOT NULL DEFAULT 'other'
    CHECK (method IN ('card', 'ideal', 'bank_transfer', 'cash', 'paypal', 'other')),
  provider text,
  provider_reference text,
  due_at timestamptz,
  paid_at timestamptz,
  UNIQUE (id, organization_id),
  CONSTRAINT payments_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE RESTRICT,
  CONSTRAINT payments_invoice_id_fkey FOREIGN KEY (invoice_id, organization_id)
    REFERENCES api.invoices (id, organization_id) ON DELETE SET NULL (invoice_id)
);
CREATE INDEX payments_organization_id_idx ON api.payments (organization_id);
CREATE INDEX payments_booking_id_idx ON api.payments (booking_id);
CREATE INDEX payments_invoice_id_idx ON api.payments (invoice_id);
CREATE UNIQUE INDEX payments_provider_reference_unique ON api.payments (provider, provider_reference)
  WHERE provider IS NOT NULL AND provider_reference IS NOT NULL;
COMMENT ON TABLE api.payments IS 'Payments of bookings (online or recorded manually). A booking with payments cannot be deleted.';
COMMENT ON COLUMN api.payments.amount IS 'Amount in minor units (> 0).';
COMMENT ON COLUMN api.payments.status IS 'pending, paid, failed, cancelled or expired.';
COMMENT ON COLUMN api.payments.provider IS 'Payment provider (e.g. stripe, mollie), or null for manual payments.';
COMMENT ON COLUMN api.payments.provider_reference IS 'Identifier of the payment at the provider.';

CREATE TABLE api.refunds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  payment_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  amount integer NOT NULL CHECK (amount > 0),
  reason text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'refunded', 'failed')),
  provider_reference text,
  refunded_at timestamptz,
  UNIQUE (id, organization_id),
  CONSTRAINT refunds_payment_id_fkey FOREIGN KEY (payment_id, organization_id)
    REFERENCES api.payments (id, organization_id) ON DELETE RESTRICT
);
CREATE INDEX refunds_organization_id_idx ON api.refunds (organization_id);
CREATE INDEX refunds_payment_id_idx ON api.refunds (payment_id);
COMMENT ON TABLE api.refunds IS 'Refunds of payments (full or partial).';
COMMENT ON COLUMN api.refunds.status IS 'pending, refunded or failed.';

-- ---------------------------------------------------------------------------------------------------------------
-- The organization's own Staykit subscription. paddle_plans is a global catalogue (no organization_id).

CREATE TABLE api.paddle_plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  paddle_price_id text NOT NULL CONSTRAINT paddle_plans_paddle_price_id_unique UNIQUE,
  name text NOT NULL CHECK (btrim(name) <> ''),
  billing_interval text NOT NULL DEFAULT 'month' CHECK (billing_interval IN ('month', 'year')),
  amount integer NOT NULL DEFAULT 0 CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  max_products integer CHECK (max_products > 0),
  features jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(features) = 'object'),
  active boolean NOT NULL DEFAULT true
);
COMMENT ON TABLE api.paddle_plans IS 'Staykit subscription plans sold through Paddle: one global catalogue, readable by every organization.';
COMMENT ON COLUMN api.paddle_plans.max_products IS 'Maximum number of units; null = unlimited.';

CREATE TABLE api.paddle_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  paddle_plan_id uuid NOT NULL REFERENCES api.paddle_plans (id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  paddle_subscription_id text NOT NULL CONSTRAINT paddle_subscriptions_paddle_subscription_id_unique UNIQUE,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('trialing', 'active', 'past_due', 'paused', 'canceled')),
  quantity integer NOT NULL DEFAULT 1 CHECK (quantity > 0),
  current_period_end timestamptz,
  canceled_at timestamptz,
  UNIQUE (id, organization_id)
);
CREATE INDEX paddle_subscriptions_organization_id_idx ON api.paddle_subscriptions (organization_id);
CREATE INDEX paddle_subscriptions_paddle_plan_id_idx ON api.paddle_subscriptions (paddle_plan_id);
COMMENT ON TABLE api.paddle_subscriptions IS 'The organization''s Staykit subscription, kept in step by Paddle webhooks.';
COMMENT ON COLUMN api.paddle_subscriptions.status IS 'trialing, active, past_due, paused or canceled.';
