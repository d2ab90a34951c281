-- The organization's profile (docs/dashboard.md, Organization page): besides its name and settings, an organization
-- may change its default language, currency and time zone — the defaults of new units and of the dashboard's dates
-- and money (units keep their own). Each column's CHECK (0002) holds its shape; the grants follow these rules (0221).
INSERT INTO staykit_internal.api_access (table_name, column_name, operations, readable, insertable, updatable, why) VALUES
  ('organizations', 'language', NULL, NULL, NULL, true, 'the organization''s default language for guests and the dashboard'),
  ('organizations', 'currency', NULL, NULL, NULL, true, 'the default currency of new units (units keep their own)'),
  ('organizations', 'timezone', NULL, NULL, NULL, true, 'the default time zone of new units and the dashboard''s clock');
