-- Guest communication: email templates (automated emails), message templates per unit, the messages sent and
-- received with their delivery events, and reply-to addresses.

CREATE TABLE api.email_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  attachments jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(attachments) = 'array'),
  body jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(body)),
  include_booking_details boolean NOT NULL DEFAULT true,
  include_booking_link boolean NOT NULL DEFAULT true,
  include_ical_data boolean NOT NULL DEFAULT false,
  include_product_image boolean NOT NULL DEFAULT false,
  moment jsonb CHECK (staykit_internal.is_moment(moment)),
  past_schedule_behavior text NOT NULL DEFAULT 'skip' CHECK (past_schedule_behavior IN ('skip', 'send')),
  status text NOT NULL DEFAULT 'CONFIRMED' CHECK (status IN ('CANCELLED', 'TENTATIVE', 'CONFIRMED')),
  subject jsonb NOT NULL CHECK (staykit_internal.is_multi_language_string(subject)),
  time time,
  trigger text CHECK (trigger IN ('created', 'confirmed', 'cancelled', 'updated', 'moment', 'manual')),
  type text NOT NULL DEFAULT 'automated' CHECK (type IN ('automated', 'manual')),
  fts tsvector GENERATED ALWAYS AS (
    jsonb_to_tsvector('simple', subject, '["string"]') || jsonb_to_tsvector('simple', body, '["string"]')
  ) STORED,
  UNIQUE (id, organization_id)
);
CREATE INDEX email_templates_organization_id_idx ON api.email_templates (organization_id);
CREATE INDEX email_templates_fts_idx ON api.email_templates USING gin (fts);
COMMENT ON TABLE api.email_templates IS 'Re-usable email templates.';
COMMENT ON COLUMN api.email_templates.attachments IS 'List of attachments to include.';
COMMENT ON COLUMN api.email_templates.body IS 'Localized body (MultiLanguageString).';
COMMENT ON COLUMN api.email_templates.fts IS 'Full-text search over subject and body.';
COMMENT ON COLUMN api.email_templates.include_booking_details IS 'Include the booking details.';
COMMENT ON COLUMN api.email_templates.include_booking_link IS 'Link to the booking status page.';
COMMENT ON COLUMN api.email_templates.include_ical_data IS 'iCal attachment.';
COMMENT ON COLUMN api.email_templates.include_product_image IS 'Include the image of the unit.';
COMMENT ON COLUMN api.email_templates.moment IS
  'When the email is sent: {"type": check-in|checkout|confirmation|on-site|request, "offset": integer days}, or null.';
COMMENT ON COLUMN api.email_templates.past_schedule_behavior IS
  'When the moment is already past for a booking: skip, or send at once.';
COMMENT ON COLUMN api.email_templates.status IS 'Booking status the template applies to: CANCELLED, TENTATIVE or CONFIRMED.';
COMMENT ON COLUMN api.email_templates.subject IS 'Localized subject (MultiLanguageString).';
COMMENT ON COLUMN api.email_templates.time IS 'Time of day at which scheduled emails are sent, or null.';
COMMENT ON COLUMN api.email_templates.trigger IS
  'Event that sends the email: created, confirmed, cancelled, updated, moment or manual; or null.';
COMMENT ON COLUMN api.email_templates.type IS 'automated or manual.';

CREATE TABLE api.message_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  email_template_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms', 'whatsapp')),
  subject jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(subject)),
  body jsonb NOT NULL DEFAULT '{"default": ""}' CHECK (staykit_internal.is_multi_language_string(body)),
  moment jsonb CHECK (staykit_internal.is_moment(moment)),
  active boolean NOT NULL DEFAULT true,
  UNIQUE (id, organization_id),
  CONSTRAINT message_templates_email_template_id_fkey FOREIGN KEY (email_template_id, organization_id)
    REFERENCES api.email_templates (id, organization_id) ON DELETE SET NULL (email_template_id)
);
CREATE INDEX message_templates_organization_id_idx ON api.message_templates (organization_id);
CREATE INDEX message_templates_email_template_id_idx ON api.message_templates (email_template_id);
COMMENT ON TABLE api.message_templates IS
  'Messages (email, SMS, WhatsApp) sent automatically at a moment of a booking; may reuse an email template.';

CREATE TABLE api.product_message_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  message_template_id uuid NOT NULL,
  product_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  "order" integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id),
  CONSTRAINT product_message_templates_unique UNIQUE (product_id, message_template_id),
  CONSTRAINT product_message_templates_message_template_id_fkey FOREIGN KEY (message_template_id, organization_id)
    REFERENCES api.message_templates (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_message_templates_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_message_templates_organization_id_idx ON api.product_message_templates (organization_id);
CREATE INDEX product_message_templates_message_template_id_idx ON api.product_message_templates (message_template_id);
COMMENT ON TABLE api.product_message_templates IS 'Automated emails active per unit.';
COMMENT ON COLUMN api.product_message_templates.message_template_id IS 'Template (refers to message_templates.id).';
COMMENT ON COLUMN api.product_message_templates.product_id IS 'Unit (refers to products.id).';
COMMENT ON COLUMN api.product_message_templates."order" IS 'Order of the template in the admin.';

CREATE TABLE api.reply_to_addresses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  email text NOT NULL CHECK (staykit_internal.is_email(email)),
  name text NOT NULL DEFAULT '',
  verified_at timestamptz,
  UNIQUE (id, organization_id)
);
CREATE UNIQUE INDEX reply_to_addresses_email_unique ON api.reply_to_addresses (organization_id, lower(email));
COMMENT ON TABLE api.reply_to_addresses IS 'Addresses guests reply to; verified_at is set once the address is confirmed.';

CREATE TABLE api.product_reply_to_addresses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  reply_to_address_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT product_reply_to_addresses_one_per_product UNIQUE (product_id),
  CONSTRAINT product_reply_to_addresses_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_reply_to_addresses_reply_to_address_id_fkey FOREIGN KEY (reply_to_address_id, organization_id)
    REFERENCES api.reply_to_addresses (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX product_reply_to_addresses_organization_id_idx ON api.product_reply_to_addresses (organization_id);
CREATE INDEX product_reply_to_addresses_reply_to_address_id_idx ON api.product_reply_to_addresses (reply_to_address_id);
COMMENT ON TABLE api.product_reply_to_addresses IS 'The reply-to address used for a unit''s messages (at most one per unit).';

CREATE TABLE api.messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  booking_id uuid,
  contact_id uuid,
  message_template_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  channel text NOT NULL DEFAULT 'email' CHECK (channel IN ('email', 'sms', 'whatsapp')),
  direction text NOT NULL DEFAULT 'outbound' CHECK (direction IN ('inbound', 'outbound')),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent', 'delivered', 'failed', 'received')),
  from_address text,
  to_address text NOT NULL CHECK (btrim(to_address) <> ''),
  subject text NOT NULL DEFAULT '',
  body text NOT NULL DEFAULT '',
  scheduled_at timestamptz,
  sent_at timestamptz,
  fts tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', subject || ' ' || body || ' ' || to_address || ' ' || coalesce(from_address, ''))
  ) STORED,
  UNIQUE (id, organization_id),
  CONSTRAINT messages_booking_id_fkey FOREIGN KEY (booking_id, organization_id)
    REFERENCES api.bookings (id, organization_id) ON DELETE SET NULL (booking_id),
  CONSTRAINT messages_contact_id_fkey FOREIGN KEY (contact_id, organization_id)
    REFERENCES api.contacts (id, organization_id) ON DELETE SET NULL (contact_id),
  CONSTRAINT messages_message_template_id_fkey FOREIGN KEY (message_template_id, organization_id)
    REFERENCES api.message_templates (id, organization_id) ON DELETE SET NULL (message_template_id)
);
CREATE INDEX messages_organization_id_idx ON api.messages (organization_id);
CREATE INDEX messages_booking_id_idx ON api.messages (booking_id);
CREATE INDEX messages_contact_id_idx ON api.messages (contact_id);
CREATE INDEX messages_message_template_id_idx ON api.messages (message_template_id);
CREATE INDEX messages_fts_idx ON api.messages USING gin (fts);
COMMENT ON TABLE api.messages IS 'Messages sent to or received from guests. POST queues an outbound message.';
COMMENT ON COLUMN api.messages.status IS 'queued, sent, delivered, failed (outbound) or received (inbound).';

CREATE TABLE api.message_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  message_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  type text NOT NULL
    CHECK (type IN ('queued', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained', 'failed')),
  payload jsonb NOT NULL DEFAULT '{}',
  UNIQUE (id, organization_id),
  CONSTRAINT message_events_message_id_fkey FOREIGN KEY (message_id, organization_id)
    REFERENCES api.messages (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX message_events_organization_id_idx ON api.message_events (organization_id);
CREATE INDEX message_events_message_id_idx ON api.message_events (message_id, created_at);
COMMENT ON TABLE api.message_events IS 'Delivery events of messages reported by the mail/SMS provider (read-only log).';
