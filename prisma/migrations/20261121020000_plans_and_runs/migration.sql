-- Plans and runs: test plans with their selection and configurations, runs with snapshotted
-- cases and steps, the append-only results history, run custom field values, run settings and
-- the monthly machine-result usage.

ALTER TABLE "organizations" ADD COLUMN "run_settings" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "projects" ADD COLUMN "last_plan_number" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "projects" ADD COLUMN "run_settings" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "test_plans" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "plan_number" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "status" TEXT NOT NULL DEFAULT 'draft',
  "milestone_id" CHAR(26),
  "excluded_combo_keys" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "author_kind" TEXT NOT NULL,
  "author_id" CHAR(26),
  "author_name" TEXT,
  "author_avatar_key" TEXT,
  "deleted_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_plans_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "test_plans_project_id_plan_number_key" ON "test_plans"("project_id", "plan_number");
CREATE INDEX "test_plans_project_id_deleted_at_plan_number_idx" ON "test_plans"("project_id", "deleted_at", "plan_number");
CREATE INDEX "test_plans_milestone_id_idx" ON "test_plans"("milestone_id");
CREATE UNIQUE INDEX "test_plans_live_name_key" ON "test_plans"("project_id", "name") WHERE "deleted_at" IS NULL;
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_plans" ADD CONSTRAINT "test_plans_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_plan_cases" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "plan_id" CHAR(26) NOT NULL,
  "case_id" CHAR(26) NOT NULL,
  "position" INTEGER NOT NULL,
  "assignee_id" CHAR(26),
  CONSTRAINT "test_plan_cases_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "test_plan_cases_plan_id_case_id_key" ON "test_plan_cases"("plan_id", "case_id");
CREATE INDEX "test_plan_cases_plan_id_position_idx" ON "test_plan_cases"("plan_id", "position");
CREATE INDEX "test_plan_cases_case_id_idx" ON "test_plan_cases"("case_id");
ALTER TABLE "test_plan_cases" ADD CONSTRAINT "test_plan_cases_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "test_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_plan_cases" ADD CONSTRAINT "test_plan_cases_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "test_plan_configurations" (
  "plan_id" CHAR(26) NOT NULL,
  "configuration_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  CONSTRAINT "test_plan_configurations_pkey" PRIMARY KEY ("plan_id", "configuration_id")
);
CREATE INDEX "test_plan_configurations_configuration_id_idx" ON "test_plan_configurations"("configuration_id");
ALTER TABLE "test_plan_configurations" ADD CONSTRAINT "test_plan_configurations_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "test_plans"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_plan_configurations" ADD CONSTRAINT "test_plan_configurations_configuration_id_fkey" FOREIGN KEY ("configuration_id") REFERENCES "configurations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "test_runs" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "plan_id" CHAR(26),
  "name" TEXT NOT NULL,
  "description" TEXT,
  "state" TEXT NOT NULL DEFAULT 'open',
  "closed_at" TIMESTAMPTZ(3),
  "aborted_at" TIMESTAMPTZ(3),
  "default_assignee_id" CHAR(26),
  "milestone_id" CHAR(26),
  "environment_id" CHAR(26),
  "environment_name" TEXT,
  "combo_key" TEXT NOT NULL DEFAULT '',
  "count_passed" INTEGER NOT NULL DEFAULT 0,
  "count_failed" INTEGER NOT NULL DEFAULT 0,
  "count_blocked" INTEGER NOT NULL DEFAULT 0,
  "count_skipped" INTEGER NOT NULL DEFAULT 0,
  "count_untested" INTEGER NOT NULL DEFAULT 0,
  "count_retested" INTEGER NOT NULL DEFAULT 0,
  "total_duration_ms" BIGINT NOT NULL DEFAULT 0,
  "first_result_at" TIMESTAMPTZ(3),
  "last_result_at" TIMESTAMPTZ(3),
  "author_kind" TEXT NOT NULL,
  "author_id" CHAR(26),
  "author_name" TEXT,
  "author_avatar_key" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_runs_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "test_runs_project_id_created_at_id_idx" ON "test_runs"("project_id", "created_at", "id");
CREATE INDEX "test_runs_plan_id_created_at_idx" ON "test_runs"("plan_id", "created_at");
CREATE INDEX "test_runs_milestone_id_idx" ON "test_runs"("milestone_id");
CREATE INDEX "test_runs_environment_id_idx" ON "test_runs"("environment_id");
ALTER TABLE "test_runs" ADD CONSTRAINT "test_runs_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_runs" ADD CONSTRAINT "test_runs_plan_id_fkey" FOREIGN KEY ("plan_id") REFERENCES "test_plans"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "test_runs" ADD CONSTRAINT "test_runs_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "test_runs" ADD CONSTRAINT "test_runs_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_run_configurations" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "run_id" CHAR(26) NOT NULL,
  "configuration_id" CHAR(26),
  "group_name" TEXT NOT NULL,
  "value_name" TEXT NOT NULL,
  "position" INTEGER NOT NULL,
  CONSTRAINT "test_run_configurations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "test_run_configurations_run_id_position_idx" ON "test_run_configurations"("run_id", "position");
CREATE INDEX "test_run_configurations_configuration_id_idx" ON "test_run_configurations"("configuration_id");
ALTER TABLE "test_run_configurations" ADD CONSTRAINT "test_run_configurations_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_run_configurations" ADD CONSTRAINT "test_run_configurations_configuration_id_fkey" FOREIGN KEY ("configuration_id") REFERENCES "configurations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_run_cases" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "run_id" CHAR(26) NOT NULL,
  "case_id" CHAR(26),
  "case_number" INTEGER NOT NULL,
  "title" TEXT NOT NULL,
  "suite_name" TEXT,
  "position" INTEGER NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'untested',
  "assignee_id" CHAR(26),
  "elapsed_ms" INTEGER,
  "last_result_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_run_cases_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "test_run_cases_run_id_case_id_key" ON "test_run_cases"("run_id", "case_id");
CREATE INDEX "test_run_cases_run_id_position_idx" ON "test_run_cases"("run_id", "position");
CREATE INDEX "test_run_cases_case_id_idx" ON "test_run_cases"("case_id");
ALTER TABLE "test_run_cases" ADD CONSTRAINT "test_run_cases_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_run_cases" ADD CONSTRAINT "test_run_cases_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_run_case_steps" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "run_case_id" CHAR(26) NOT NULL,
  "position" INTEGER NOT NULL,
  "action" TEXT NOT NULL,
  "expected_result" TEXT,
  "status" TEXT NOT NULL DEFAULT 'untested',
  "actual_result" TEXT,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_run_case_steps_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "test_run_case_steps_run_case_id_position_idx" ON "test_run_case_steps"("run_case_id", "position");
ALTER TABLE "test_run_case_steps" ADD CONSTRAINT "test_run_case_steps_run_case_id_fkey" FOREIGN KEY ("run_case_id") REFERENCES "test_run_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "test_run_results" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "run_id" CHAR(26) NOT NULL,
  "run_case_id" CHAR(26),
  "case_id" CHAR(26),
  "status" TEXT NOT NULL,
  "elapsed_ms" INTEGER,
  "comment" TEXT,
  "source" TEXT NOT NULL,
  "executed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "executed_by_id" CHAR(26),
  "author_kind" TEXT NOT NULL,
  "author_id" CHAR(26),
  "author_name" TEXT,
  "author_avatar_key" TEXT,
  CONSTRAINT "test_run_results_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "test_run_results_run_id_executed_at_id_idx" ON "test_run_results"("run_id", "executed_at", "id");
CREATE INDEX "test_run_results_run_case_id_executed_at_idx" ON "test_run_results"("run_case_id", "executed_at");
CREATE INDEX "test_run_results_case_id_idx" ON "test_run_results"("case_id");
ALTER TABLE "test_run_results" ADD CONSTRAINT "test_run_results_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_run_results" ADD CONSTRAINT "test_run_results_run_case_id_fkey" FOREIGN KEY ("run_case_id") REFERENCES "test_run_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "test_run_results" ADD CONSTRAINT "test_run_results_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_run_field_values" (
  "run_id" CHAR(26) NOT NULL,
  "field_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "value" JSONB NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_run_field_values_pkey" PRIMARY KEY ("run_id", "field_id")
);
CREATE INDEX "test_run_field_values_field_id_idx" ON "test_run_field_values"("field_id");
ALTER TABLE "test_run_field_values" ADD CONSTRAINT "test_run_field_values_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_run_field_values" ADD CONSTRAINT "test_run_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_result_usage" (
  "org_id" CHAR(26) NOT NULL,
  "period_key" TEXT NOT NULL,
  "used" INTEGER NOT NULL DEFAULT 0,
  CONSTRAINT "api_result_usage_pkey" PRIMARY KEY ("org_id", "period_key")
);
ALTER TABLE "api_result_usage" ADD CONSTRAINT "api_result_usage_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
