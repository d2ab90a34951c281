-- HTML e-mails (docs/automations.md#html-e-mails): a template's message is composed as plain text (messages.body, as
-- before) and as HTML, the alternative mail programs show. The HTML travels with the message's delivery job, like
-- its attachments: it is how this message is sent, not a field of the message a client writes.
ALTER TABLE staykit_internal.automation_jobs ADD COLUMN html text;
COMMENT ON COLUMN staykit_internal.automation_jobs.html IS
  'A delivery''s HTML alternative (composed with the message from its template); null: the message is plain text only.';
