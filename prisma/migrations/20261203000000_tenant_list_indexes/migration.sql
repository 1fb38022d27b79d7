-- A tenant's list pages in an order only its own index holds (issue 33). The audit feeds and the
-- case list order by ULID compared bytewise (COLLATE "C"); the primary keys, in the database's
-- collation, cannot give that order, so no plan walks them through other organizations' rows,
-- whatever the statistics say. ORDER BY org_id, id would not do: with org_id fixed by the filter
-- the planner drops it from the order, and the primary key holds the rest.
DROP INDEX "audit_events_org_id_id_idx";
CREATE INDEX "audit_events_org_id_id_c_idx" ON "audit_events"("org_id", "id" COLLATE "C");
DROP INDEX "audit_events_run_id_id_idx";
CREATE INDEX "audit_events_run_id_id_c_idx" ON "audit_events"("run_id", "id" COLLATE "C");
CREATE INDEX "test_cases_project_id_id_c_idx" ON "test_cases"("project_id", "id" COLLATE "C");
