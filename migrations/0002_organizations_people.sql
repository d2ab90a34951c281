-- Organizations (the tenants), the people in them, their guests, and the API keys that act for them.
--
-- Every tenant-owned table in this and later files has
--   organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id)
-- and UNIQUE (id, organization_id), so children can reference (parent_id, organization_id) and never point into
-- another organization.

CREATE TABLE api.organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  currency text NOT NULL DEFAULT 'EUR' CHECK (staykit_internal.is_currency(currency)),
  language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(language)),
  timezone text NOT NULL DEFAULT 'UTC' CHECK (staykit_internal.is_time_zone(timezone))
);
COMMENT ON TABLE api.organizations IS 'Tenants: every other row belongs to exactly one organization.';
COMMENT ON COLUMN api.organizations.name IS 'Display name of the organization.';
COMMENT ON COLUMN api.organizations.settings IS 'Free-form organization settings (JSON object).';
COMMENT ON COLUMN api.organizations.currency IS 'Default currency for new units (ISO 4217).';
COMMENT ON COLUMN api.organizations.language IS 'Default language of guest-facing texts (BCP 47).';
COMMENT ON COLUMN api.organizations.timezone IS 'Default time zone for new units.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.user_profiles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  user_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL DEFAULT '',
  email text CHECK (staykit_internal.is_email(email)),
  avatar_url text CHECK (staykit_internal.is_http_url(avatar_url)),
  language text NOT NULL DEFAULT 'en' CHECK (staykit_internal.is_language(language)),
  UNIQUE (id, organization_id),
  CONSTRAINT user_profiles_user_per_organization UNIQUE (user_id, organization_id)
);
CREATE INDEX user_profiles_organization_id_idx ON api.user_profiles (organization_id);
COMMENT ON TABLE api.user_profiles IS
  'Dashboard users as seen by one organization; other tables refer to them by (user_id, organization_id).';
COMMENT ON COLUMN api.user_profiles.user_id IS 'Identity of the user across organizations (one profile per organization).';
COMMENT ON COLUMN api.user_profiles.name IS 'Display name.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.members (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  user_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  name text NOT NULL CHECK (btrim(name) <> ''),
  email text CHECK (staykit_internal.is_email(email)),
  phone text,
  role text NOT NULL DEFAULT 'staff' CHECK (role IN ('owner', 'admin', 'manager', 'staff', 'cleaner', 'maintenance')),
  active boolean NOT NULL DEFAULT true,
  UNIQUE (id, organization_id),
  CONSTRAINT members_user_id_fkey FOREIGN KEY (user_id, organization_id)
    REFERENCES api.user_profiles (user_id, organization_id) ON DELETE SET NULL (user_id)
);
CREATE INDEX members_organization_id_idx ON api.members (organization_id);
CREATE INDEX members_user_id_idx ON api.members (user_id);
COMMENT ON TABLE api.members IS
  'People who work for the organization (staff, cleaners, owners); assignees of tasks. May be linked to a user.';
COMMENT ON COLUMN api.members.user_id IS 'Dashboard user of this member, if they have one (refers to user_profiles.user_id).';
COMMENT ON COLUMN api.members.role IS 'owner, admin, manager, staff, cleaner or maintenance.';
COMMENT ON COLUMN api.members.active IS 'False for former members; they keep their history but get no new tasks.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.permissions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  member_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  resource text NOT NULL DEFAULT '*' CHECK (resource = '*' OR resource ~ '^[a-z][a-z_]*$'),
  access text NOT NULL DEFAULT 'read' CHECK (access IN ('read', 'write')),
  UNIQUE (id, organization_id),
  CONSTRAINT permissions_member_resource_unique UNIQUE (member_id, resource),
  CONSTRAINT permissions_member_id_fkey FOREIGN KEY (member_id, organization_id)
    REFERENCES api.members (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX permissions_organization_id_idx ON api.permissions (organization_id);
COMMENT ON TABLE api.permissions IS 'What a member may do in the dashboard: read or write access per resource (or * for all).';

-- ---------------------------------------------------------------------------------------------------------------
CREATE TABLE api.contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email text CHECK (staykit_internal.is_email(email)),
  phone text,
  company text,
  address jsonb CHECK (jsonb_typeof(address) = 'object'),
  country text CHECK (country ~ '^[A-Z]{2}$'),
  language text CHECK (staykit_internal.is_language(language)),
  notes text NOT NULL DEFAULT '',
  fts tsvector GENERATED ALWAYS AS (
    to_tsvector('simple', first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' '
                          || coalesce(phone, '') || ' ' || coalesce(company, '') || ' ' || notes)
  ) STORED,
  UNIQUE (id, organization_id)
);
CREATE INDEX contacts_organization_id_idx ON api.contacts (organization_id);
CREATE INDEX contacts_email_idx ON api.contacts (organization_id, lower(email));
CREATE INDEX contacts_fts_idx ON api.contacts USING gin (fts);
COMMENT ON TABLE api.contacts IS 'Guests and other people the organization deals with; linked to bookings by contact_bookings.';
COMMENT ON COLUMN api.contacts.address IS 'Postal address as a JSON object (street, postal_code, city, region, country).';
COMMENT ON COLUMN api.contacts.country IS 'ISO 3166-1 alpha-2 country code.';
COMMENT ON COLUMN api.contacts.fts IS 'Full-text search over names, email, phone, company and notes.';

-- ---------------------------------------------------------------------------------------------------------------
CREATE FUNCTION staykit_internal.is_scope_list(value text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT cardinality(value) > 0 AND array_position(value, NULL) IS NULL
     AND coalesce(array_to_string(value, ',') ~ '^((read|write|[a-z][a-z0-9_]*:(read|write))(,|$))*$', false)
$$;
COMMENT ON FUNCTION staykit_internal.is_scope_list(text[]) IS 'API key scopes: read, write, <resource>:read or <resource>:write.';

CREATE TABLE staykit_internal.api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL REFERENCES api.organizations (id) ON DELETE CASCADE,
  key_id text NOT NULL CONSTRAINT api_keys_key_id_unique UNIQUE CHECK (key_id ~ '^[a-z2-7]{12}$'),
  secret_hash text NOT NULL CHECK (secret_hash ~ '^[0-9a-f]{64}$'),
  name text NOT NULL DEFAULT '',
  scopes text[] NOT NULL DEFAULT '{read,write}' CHECK (staykit_internal.is_scope_list(scopes)),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id)
);
CREATE INDEX api_keys_organization_id_idx ON staykit_internal.api_keys (organization_id);
COMMENT ON TABLE staykit_internal.api_keys IS
  'API keys sk_<key_id>_<secret>: only the SHA-256 of the secret is stored. Never visible to the staykit_api role.';
COMMENT ON COLUMN staykit_internal.api_keys.key_id IS 'Public part of the key: 12 lowercase base32 characters.';
COMMENT ON COLUMN staykit_internal.api_keys.secret_hash IS 'Lowercase hex SHA-256 of the secret part.';
COMMENT ON COLUMN staykit_internal.api_keys.scopes IS 'read, write, <resource>:read, <resource>:write.';
