-- The files of guests' inbound e-mails (docs/automations.md#inbox): each attachment the inbox keeps has its bytes in
-- the configured object store (the media store: DATA_DIR/media or the S3 bucket of STAYKIT_MEDIA_S3_URL) under
-- `attachments/<organization id>/<sha256>`, and a row here. api.media is not the place: its rows are pictures
-- Staykit resized (images only), while a guest sends PDFs, scans and spreadsheets that are kept as they came.
--
-- Written only by the inbound path (src/inbox/store.ts, as the database owner, in the transaction that stores the
-- message): the object is written before the row, so a row never lacks its object (an object whose row was rolled
-- back is harmless, and the same file sent again reuses it). Read through /v1/message_attachments (the scope
-- message_attachments:read, as every table) and downloaded with GET /v1/message-attachments/{id} (messages:read).
-- Deleting the message deletes its rows; the objects are kept (docs/automations.md#inbox says so).

CREATE TABLE api.message_attachments (
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  message_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  filename text NOT NULL CONSTRAINT message_attachments_filename_length CHECK (length(filename) BETWEEN 1 AND 255),
  content_type text NOT NULL
    CONSTRAINT message_attachments_content_type_shape CHECK (content_type ~ '^[a-z0-9][a-z0-9!#$&^_.+-]*/[a-z0-9][a-z0-9!#$&^_.+-]*$'),
  bytes integer NOT NULL CONSTRAINT message_attachments_bytes_not_negative CHECK (bytes >= 0),
  sha256 text NOT NULL CONSTRAINT message_attachments_sha256_format CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  storage_key text NOT NULL CONSTRAINT message_attachments_storage_key_format
    CHECK (storage_key ~ '^attachments/[0-9a-f-]{36}/[0-9a-f]{64}$'),
  inline boolean NOT NULL DEFAULT false,
  PRIMARY KEY (organization_id, id),
  UNIQUE (id, organization_id),
  CONSTRAINT message_attachments_message_id_fkey FOREIGN KEY (message_id, organization_id)
    REFERENCES api.messages (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX message_attachments_message_id_idx ON api.message_attachments (message_id);
COMMENT ON TABLE api.message_attachments IS
  'Files of inbound e-mails, their bytes in the object store: download with GET /v1/message-attachments/{id} (read-only).';
COMMENT ON COLUMN api.message_attachments.filename IS 'The file''s name as the sender gave it (at most 255 characters).';
COMMENT ON COLUMN api.message_attachments.content_type IS 'The media type the sender gave (served as is only when on the safe list).';
COMMENT ON COLUMN api.message_attachments.bytes IS 'Size of the file in bytes.';
COMMENT ON COLUMN api.message_attachments.sha256 IS 'SHA-256 of the file''s bytes (hex).';
COMMENT ON COLUMN api.message_attachments.storage_key IS 'Where the bytes are in the object store: attachments/<organization>/<sha256>.';
COMMENT ON COLUMN api.message_attachments.inline IS 'Shown within the mail''s text (an inline image, such as a signature''s logo).';

ALTER TABLE api.message_attachments ENABLE ROW LEVEL SECURITY;
ALTER TABLE api.message_attachments FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON api.message_attachments TO staykit_api
  USING (organization_id = (SELECT staykit_internal.current_organization_id()))
  WITH CHECK (organization_id = (SELECT staykit_internal.current_organization_id()));
DO $$
BEGIN
  EXECUTE format('CREATE POLICY owner_access ON api.message_attachments TO %I USING (true) WITH CHECK (true)', current_user);
END
$$;
SELECT staykit_internal.enforce_read_scope('api.message_attachments');
SELECT staykit_internal.enforce_write_scope('api.message_attachments');
INSERT INTO staykit_internal.api_access (table_name, column_name, operations, why)
VALUES ('message_attachments', '*', '{SELECT}', 'written only by the inbound e-mail path, with the file it stored');
