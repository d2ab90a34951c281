-- Operational work: task templates, tasks defined per unit (product_tasks) that become tasks per calendar event
-- (calendar_event_tasks), free-standing tasks, and who is assigned to them (members).

CREATE TABLE api.task_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  label text NOT NULL CHECK (btrim(label) <> ''),
  description text NOT NULL DEFAULT '',
  schedule text NOT NULL DEFAULT 'departure' CHECK (schedule IN ('arrival', 'departure', 'confirmation', 'custom')),
  offset_minutes integer NOT NULL DEFAULT 0,
  UNIQUE (id, organization_id)
);
CREATE INDEX task_templates_organization_id_idx ON api.task_templates (organization_id);
COMMENT ON TABLE api.task_templates IS 'Reusable task definitions (e.g. cleaning after departure).';
COMMENT ON COLUMN api.task_templates.schedule IS 'Moment the task is due relative to: arrival, departure, confirmation or custom.';
COMMENT ON COLUMN api.task_templates.offset_minutes IS 'Minutes after (negative: before) the schedule moment.';

CREATE TABLE api.task_template_assignees (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  task_template_id uuid NOT NULL,
  member_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT task_template_assignees_unique UNIQUE (task_template_id, member_id),
  CONSTRAINT task_template_assignees_task_template_id_fkey FOREIGN KEY (task_template_id, organization_id)
    REFERENCES api.task_templates (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT task_template_assignees_member_id_fkey FOREIGN KEY (member_id, organization_id)
    REFERENCES api.members (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX task_template_assignees_organization_id_idx ON api.task_template_assignees (organization_id);
CREATE INDEX task_template_assignees_member_id_idx ON api.task_template_assignees (member_id);
COMMENT ON TABLE api.task_template_assignees IS 'Members assigned by default to tasks made from a template.';

CREATE TABLE api.product_tasks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid NOT NULL,
  task_template_id uuid,
  assignee_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  label text NOT NULL CHECK (btrim(label) <> ''),
  schedule text NOT NULL DEFAULT 'departure' CHECK (schedule IN ('arrival', 'departure', 'confirmation', 'custom')),
  offset_minutes integer NOT NULL DEFAULT 0,
  active boolean NOT NULL DEFAULT true,
  UNIQUE (id, organization_id),
  CONSTRAINT product_tasks_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT product_tasks_task_template_id_fkey FOREIGN KEY (task_template_id, organization_id)
    REFERENCES api.task_templates (id, organization_id) ON DELETE SET NULL (task_template_id),
  CONSTRAINT product_tasks_assignee_id_fkey FOREIGN KEY (assignee_id, organization_id)
    REFERENCES api.members (id, organization_id) ON DELETE SET NULL (assignee_id)
);
CREATE INDEX product_tasks_organization_id_idx ON api.product_tasks (organization_id);
CREATE INDEX product_tasks_product_id_idx ON api.product_tasks (product_id);
CREATE INDEX product_tasks_task_template_id_idx ON api.product_tasks (task_template_id);
CREATE INDEX product_tasks_assignee_id_idx ON api.product_tasks (assignee_id);
COMMENT ON TABLE api.product_tasks IS
  'Tasks defined per unit; each booking of the unit gets a calendar_event_task per active product task.';
COMMENT ON COLUMN api.product_tasks.assignee_id IS 'Default assignee (refers to members.id).';
COMMENT ON COLUMN api.product_tasks.schedule IS 'arrival, departure, confirmation or custom.';
COMMENT ON COLUMN api.product_tasks.offset_minutes IS 'Minutes after (negative: before) the schedule moment.';

CREATE TABLE api.calendar_event_tasks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  assignee_id uuid,
  calendar_event_id uuid NOT NULL,
  product_task_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  due_at timestamptz NOT NULL,
  label text NOT NULL CHECK (btrim(label) <> ''),
  notification_sent_at timestamptz,
  schedule text NOT NULL DEFAULT 'departure' CHECK (schedule IN ('arrival', 'departure', 'confirmation', 'custom')),
  UNIQUE (id, organization_id),
  CONSTRAINT calendar_event_tasks_assignee_id_fkey FOREIGN KEY (assignee_id, organization_id)
    REFERENCES api.members (id, organization_id) ON DELETE SET NULL (assignee_id),
  CONSTRAINT calendar_event_tasks_calendar_event_id_fkey FOREIGN KEY (calendar_event_id, organization_id)
    REFERENCES api.calendar_events (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT calendar_event_tasks_product_task_id_fkey FOREIGN KEY (product_task_id, organization_id)
    REFERENCES api.product_tasks (id, organization_id) ON DELETE SET NULL (product_task_id)
);
CREATE INDEX calendar_event_tasks_organization_id_idx ON api.calendar_event_tasks (organization_id);
CREATE INDEX calendar_event_tasks_assignee_id_idx ON api.calendar_event_tasks (assignee_id);
CREATE INDEX calendar_event_tasks_calendar_event_id_idx ON api.calendar_event_tasks (calendar_event_id);
CREATE INDEX calendar_event_tasks_product_task_id_idx ON api.calendar_event_tasks (product_task_id);
CREATE INDEX calendar_event_tasks_open_due_idx ON api.calendar_event_tasks (due_at) WHERE completed_at IS NULL;
COMMENT ON TABLE api.calendar_event_tasks IS 'Tasks defined per calendar event.';
COMMENT ON COLUMN api.calendar_event_tasks.assignee_id IS 'Assigned member (refers to members.id), or null.';
COMMENT ON COLUMN api.calendar_event_tasks.calendar_event_id IS 'Event (refers to calendar_events.id).';
COMMENT ON COLUMN api.calendar_event_tasks.product_task_id IS 'Product task it was made from (refers to product_tasks.id).';
COMMENT ON COLUMN api.calendar_event_tasks.completed_at IS 'When the task was completed; null while open.';
COMMENT ON COLUMN api.calendar_event_tasks.due_at IS 'When the task is due.';
COMMENT ON COLUMN api.calendar_event_tasks.label IS 'What has to be done.';
COMMENT ON COLUMN api.calendar_event_tasks.notification_sent_at IS 'Last notification sent, or null.';
COMMENT ON COLUMN api.calendar_event_tasks.schedule IS
  'Task schedule relative to the event: arrival, departure, confirmation or custom.';

CREATE TABLE api.tasks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  product_id uuid,
  calendar_event_id uuid,
  task_template_id uuid,
  creator_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  title text NOT NULL CHECK (btrim(title) <> ''),
  description text NOT NULL DEFAULT '',
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  due_at timestamptz,
  completed_at timestamptz,
  fts tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || description)) STORED,
  UNIQUE (id, organization_id),
  CONSTRAINT tasks_product_id_fkey FOREIGN KEY (product_id, organization_id)
    REFERENCES api.products (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT tasks_calendar_event_id_fkey FOREIGN KEY (calendar_event_id, organization_id)
    REFERENCES api.calendar_events (id, organization_id) ON DELETE SET NULL (calendar_event_id),
  CONSTRAINT tasks_task_template_id_fkey FOREIGN KEY (task_template_id, organization_id)
    REFERENCES api.task_templates (id, organization_id) ON DELETE SET NULL (task_template_id),
  CONSTRAINT tasks_creator_id_fkey FOREIGN KEY (creator_id, organization_id)
    REFERENCES api.user_profiles (user_id, organization_id) ON DELETE SET NULL (creator_id)
);
CREATE INDEX tasks_organization_id_idx ON api.tasks (organization_id);
CREATE INDEX tasks_product_id_idx ON api.tasks (product_id);
CREATE INDEX tasks_calendar_event_id_idx ON api.tasks (calendar_event_id);
CREATE INDEX tasks_task_template_id_idx ON api.tasks (task_template_id);
CREATE INDEX tasks_creator_id_idx ON api.tasks (creator_id);
CREATE INDEX tasks_fts_idx ON api.tasks USING gin (fts);
COMMENT ON TABLE api.tasks IS 'Free-standing to-dos (maintenance, purchases), optionally about a unit or an event.';
COMMENT ON COLUMN api.tasks.priority IS 'low, normal, high or urgent.';
COMMENT ON COLUMN api.tasks.completed_at IS 'When the task was completed; null while open.';

CREATE TABLE api.task_assignees (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL DEFAULT staykit_internal.current_organization_id() REFERENCES api.organizations (id),
  task_id uuid NOT NULL,
  member_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, organization_id),
  CONSTRAINT task_assignees_unique UNIQUE (task_id, member_id),
  CONSTRAINT task_assignees_task_id_fkey FOREIGN KEY (task_id, organization_id)
    REFERENCES api.tasks (id, organization_id) ON DELETE CASCADE,
  CONSTRAINT task_assignees_member_id_fkey FOREIGN KEY (member_id, organization_id)
    REFERENCES api.members (id, organization_id) ON DELETE CASCADE
);
CREATE INDEX task_assignees_organization_id_idx ON api.task_assignees (organization_id);
CREATE INDEX task_assignees_member_id_idx ON api.task_assignees (member_id);
COMMENT ON TABLE api.task_assignees IS 'Members assigned to a task.';
