-- Test design: suites, test cases, steps, step attachments, custom fields, comments,
-- milestones, environments, configuration groups and values.

ALTER TABLE "projects" ADD COLUMN "last_suite_number" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "projects" ADD COLUMN "last_case_number" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "suites" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "suite_number" INTEGER NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "parent_id" CHAR(26),
  "position" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "suites_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "suites_project_id_suite_number_key" ON "suites"("project_id", "suite_number");
CREATE INDEX "suites_project_id_parent_id_position_idx" ON "suites"("project_id", "parent_id", "position");
CREATE INDEX "suites_parent_id_idx" ON "suites"("parent_id");
ALTER TABLE "suites" ADD CONSTRAINT "suites_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "suites" ADD CONSTRAINT "suites_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "suites"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "milestones" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "due_at" TIMESTAMPTZ(3),
  "completed_at" TIMESTAMPTZ(3),
  "deleted_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "milestones_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "milestones_project_id_deleted_at_id_idx" ON "milestones"("project_id", "deleted_at", "id");
ALTER TABLE "milestones" ADD CONSTRAINT "milestones_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "test_cases" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "case_number" INTEGER NOT NULL,
  "title" TEXT NOT NULL,
  "description" TEXT,
  "suite_id" CHAR(26),
  "milestone_id" CHAR(26),
  "tags" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "archived_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_cases_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "test_cases_project_id_case_number_key" ON "test_cases"("project_id", "case_number");
CREATE INDEX "test_cases_project_id_suite_id_id_idx" ON "test_cases"("project_id", "suite_id", "id");
CREATE INDEX "test_cases_project_id_archived_at_id_idx" ON "test_cases"("project_id", "archived_at", "id");
CREATE INDEX "test_cases_suite_id_idx" ON "test_cases"("suite_id");
CREATE INDEX "test_cases_milestone_id_idx" ON "test_cases"("milestone_id");
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_suite_id_fkey" FOREIGN KEY ("suite_id") REFERENCES "suites"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "test_cases" ADD CONSTRAINT "test_cases_milestone_id_fkey" FOREIGN KEY ("milestone_id") REFERENCES "milestones"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "test_case_steps" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "case_id" CHAR(26) NOT NULL,
  "position" INTEGER NOT NULL,
  "action" TEXT NOT NULL,
  "expected_result" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_case_steps_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "test_case_steps_case_id_position_idx" ON "test_case_steps"("case_id", "position");
ALTER TABLE "test_case_steps" ADD CONSTRAINT "test_case_steps_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "step_attachments" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "case_id" CHAR(26) NOT NULL,
  "step_id" CHAR(26) NOT NULL,
  "staged_key" TEXT NOT NULL,
  "storage_key" TEXT NOT NULL,
  "file_name" TEXT NOT NULL,
  "content_type" TEXT NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "position" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "step_attachments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "step_attachments_staged_key_key" ON "step_attachments"("staged_key");
CREATE INDEX "step_attachments_case_id_idx" ON "step_attachments"("case_id");
CREATE INDEX "step_attachments_step_id_position_idx" ON "step_attachments"("step_id", "position");
ALTER TABLE "step_attachments" ADD CONSTRAINT "step_attachments_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "step_attachments" ADD CONSTRAINT "step_attachments_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "test_case_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "custom_fields" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "entity" TEXT NOT NULL,
  "field_group" TEXT NOT NULL,
  "system_key" TEXT,
  "value_type" TEXT NOT NULL,
  "title_en" TEXT NOT NULL,
  "title_es" TEXT,
  "placeholder_en" TEXT,
  "placeholder_es" TEXT,
  "is_required" BOOLEAN NOT NULL DEFAULT false,
  "default_value" JSONB,
  "all_projects" BOOLEAN NOT NULL DEFAULT true,
  "position" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "custom_fields_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "custom_fields_entity_check" CHECK ("entity" IN ('test_case', 'test_run', 'defect')),
  CONSTRAINT "custom_fields_group_check" CHECK ("field_group" IN ('system', 'custom')),
  CONSTRAINT "custom_fields_value_type_check" CHECK ("value_type" IN ('select_single', 'select_multi', 'radio', 'checkbox', 'paragraph', 'user_picker'))
);
CREATE UNIQUE INDEX "custom_fields_org_id_system_key_key" ON "custom_fields"("org_id", "system_key");
CREATE INDEX "custom_fields_org_id_entity_position_idx" ON "custom_fields"("org_id", "entity", "position");
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "custom_field_options" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "field_id" CHAR(26) NOT NULL,
  "seed_key" TEXT,
  "name_en" TEXT NOT NULL,
  "name_es" TEXT,
  "icon" TEXT,
  "color" TEXT,
  "position" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "custom_field_options_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "custom_field_options_field_id_position_idx" ON "custom_field_options"("field_id", "position");
ALTER TABLE "custom_field_options" ADD CONSTRAINT "custom_field_options_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "custom_field_projects" (
  "field_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  CONSTRAINT "custom_field_projects_pkey" PRIMARY KEY ("field_id", "project_id")
);
CREATE INDEX "custom_field_projects_project_id_idx" ON "custom_field_projects"("project_id");
ALTER TABLE "custom_field_projects" ADD CONSTRAINT "custom_field_projects_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "custom_field_projects" ADD CONSTRAINT "custom_field_projects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "test_case_field_values" (
  "case_id" CHAR(26) NOT NULL,
  "field_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "value" JSONB NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "test_case_field_values_pkey" PRIMARY KEY ("case_id", "field_id")
);
CREATE INDEX "test_case_field_values_field_id_idx" ON "test_case_field_values"("field_id");
ALTER TABLE "test_case_field_values" ADD CONSTRAINT "test_case_field_values_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "test_case_field_values" ADD CONSTRAINT "test_case_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "comments" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "case_id" CHAR(26),
  "parent_id" CHAR(26),
  "body" TEXT NOT NULL,
  "pinned_at" TIMESTAMPTZ(3),
  "author_kind" TEXT NOT NULL,
  "author_id" CHAR(26),
  "author_name" TEXT,
  "author_avatar_key" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "comments_case_id_id_idx" ON "comments"("case_id", "id");
CREATE INDEX "comments_parent_id_idx" ON "comments"("parent_id");
ALTER TABLE "comments" ADD CONSTRAINT "comments_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comments" ADD CONSTRAINT "comments_case_id_fkey" FOREIGN KEY ("case_id") REFERENCES "test_cases"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "environments" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "slug" TEXT NOT NULL,
  "deleted_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "environments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "environments_project_id_deleted_at_id_idx" ON "environments"("project_id", "deleted_at", "id");
CREATE UNIQUE INDEX "environments_live_slug_key" ON "environments"("project_id", "slug") WHERE "deleted_at" IS NULL;
ALTER TABLE "environments" ADD CONSTRAINT "environments_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "configuration_groups" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "position" INTEGER NOT NULL DEFAULT 0,
  "deleted_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "configuration_groups_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "configuration_groups_project_id_deleted_at_position_idx" ON "configuration_groups"("project_id", "deleted_at", "position");
ALTER TABLE "configuration_groups" ADD CONSTRAINT "configuration_groups_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "configurations" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  "group_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "position" INTEGER NOT NULL DEFAULT 0,
  "deleted_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "configurations_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "configurations_group_id_position_idx" ON "configurations"("group_id", "position");
CREATE INDEX "configurations_project_id_idx" ON "configurations"("project_id");
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "configuration_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
