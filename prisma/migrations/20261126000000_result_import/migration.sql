-- Result import from test runners (decisions §12): the automation key that binds a runner's test
-- to its case, and what an imported result keeps of its attempts.
ALTER TABLE "test_cases" ADD COLUMN "automation_key" TEXT;
CREATE UNIQUE INDEX "test_cases_project_id_automation_key_key" ON "test_cases"("project_id", "automation_key");

-- `attempts`: every attempt of a retried test, oldest first ({ status, elapsedMs, message });
-- `flaky`: the attempts failed, then passed; `parameters`: a parameterized test's arguments.
ALTER TABLE "test_run_results" ADD COLUMN "flaky" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "test_run_results" ADD COLUMN "attempts" JSONB;
ALTER TABLE "test_run_results" ADD COLUMN "parameters" JSONB;

-- A case's latest results, for flaky detection's window per case.
DROP INDEX "test_run_results_case_id_idx";
CREATE INDEX "test_run_results_case_id_executed_at_idx" ON "test_run_results"("case_id", "executed_at");
