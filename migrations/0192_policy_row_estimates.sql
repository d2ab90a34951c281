-- The row-level-security policies that let everything through unless the request is of a kind that is restricted
-- (a publishable key's listed products, migration 0150; field staff's own tasks, 0141) tested `(SELECT f()) IS
-- NULL OR …`. The planner cannot look into the InitPlan and rates `$0 IS NULL` at 0.5 % of the rows, so it planned
-- every products query for a handful of rows: `/v1/products?select=*,calendar_events(*)&limit=20` built the embeds
-- of all 1,000 units of the benchmark's tenant before sorting and keeping 20 (2.7 s instead of 50 ms, measured with
-- EXPLAIN ANALYZE on the benchmark's data). The same test as a boolean InitPlan, `(SELECT f() IS NULL)`, is rated
-- at half the rows, which lets the planner walk the primary key and stop at the limit. Same rows either way.
ALTER POLICY publishable_listing ON api.products
  USING ((SELECT staykit_internal.publishable_product_ids() IS NULL)
         OR id = ANY ((SELECT staykit_internal.publishable_product_ids())::uuid[]));
ALTER POLICY own_tasks ON api.calendar_event_tasks
  USING ((SELECT staykit_internal.own_tasks_member() IS NULL) OR assignee_id = (SELECT staykit_internal.own_tasks_member()));
ALTER POLICY own_tasks ON api.task_assignees
  USING ((SELECT staykit_internal.own_tasks_member() IS NULL) OR member_id = (SELECT staykit_internal.own_tasks_member()));
ALTER POLICY own_tasks ON api.tasks
  USING ((SELECT staykit_internal.own_tasks_member() IS NULL) OR id IN (SELECT staykit_internal.own_task_ids()));
