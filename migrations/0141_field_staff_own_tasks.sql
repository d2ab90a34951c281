-- Field staff see their own tasks: a dashboard session of a member with role `cleaner` or `maintenance` reads only
-- the tasks assigned to them — calendar_event_tasks whose assignee they are, tasks they are an assignee of, and their
-- own task_assignees rows — whatever else their permissions allow (docs/dashboard.md#sessions-api). Other roles,
-- API keys and the server's own work are not restricted: with no acting user (staykit.user_id unset) the member is
-- NULL and the policies admit every row.
--
-- The member is found once per statement (InitPlan) by SECURITY DEFINER helpers, so the check neither depends on
-- the session's read grants on api.members or api.task_assignees nor costs a lookup per row.

CREATE FUNCTION staykit_internal.own_tasks_member() RETURNS uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT m.id FROM api.members AS m
  WHERE m.user_id = staykit_internal.current_user_id()
    AND m.organization_id = staykit_internal.current_organization_id()
    AND m.role IN ('cleaner', 'maintenance')
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.own_tasks_member() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.own_tasks_member() TO staykit_api;
COMMENT ON FUNCTION staykit_internal.own_tasks_member() IS
  'The acting member when their role sees only their own tasks (cleaner, maintenance), else NULL.';

CREATE FUNCTION staykit_internal.own_task_ids() RETURNS SETOF uuid
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, api, staykit_internal AS $$
  SELECT a.task_id FROM api.task_assignees AS a
  WHERE a.member_id = staykit_internal.own_tasks_member()
$$;
REVOKE EXECUTE ON FUNCTION staykit_internal.own_task_ids() FROM PUBLIC;
GRANT EXECUTE ON FUNCTION staykit_internal.own_task_ids() TO staykit_api;
COMMENT ON FUNCTION staykit_internal.own_task_ids() IS 'The tasks the acting field-staff member is an assignee of.';

CREATE POLICY own_tasks ON api.calendar_event_tasks AS RESTRICTIVE FOR SELECT TO staykit_api
  USING ((SELECT staykit_internal.own_tasks_member()) IS NULL OR assignee_id = (SELECT staykit_internal.own_tasks_member()));
CREATE POLICY own_tasks ON api.task_assignees AS RESTRICTIVE FOR SELECT TO staykit_api
  USING ((SELECT staykit_internal.own_tasks_member()) IS NULL OR member_id = (SELECT staykit_internal.own_tasks_member()));
CREATE POLICY own_tasks ON api.tasks AS RESTRICTIVE FOR SELECT TO staykit_api
  USING ((SELECT staykit_internal.own_tasks_member()) IS NULL OR id IN (SELECT staykit_internal.own_task_ids()));
