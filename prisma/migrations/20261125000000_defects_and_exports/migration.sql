-- Defects (decisions §5) with their custom field values, comments and links to result attempts;
-- attachments of result attempts.

ALTER TABLE "projects" ADD COLUMN "last_defect_number" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "defects" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "project_id" CHAR(26) NOT NULL,
  -- Gapless per project: allocated from projects.last_defect_number under the project row's lock.
  "defect_number" INTEGER NOT NULL,
  "title" TEXT NOT NULL,
  "description" TEXT,
  -- open, in_progress, resolved, closed; open and in_progress are unresolved.
  "status" TEXT NOT NULL DEFAULT 'open',
  "assignee_id" CHAR(26),
  "external_url" TEXT,
  "author_kind" TEXT NOT NULL,
  "author_id" CHAR(26),
  "author_name" TEXT,
  "author_avatar_key" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "defects_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "defects_project_id_defect_number_key" ON "defects"("project_id", "defect_number");
CREATE INDEX "defects_project_id_status_idx" ON "defects"("project_id", "status");
CREATE INDEX "defects_assignee_id_idx" ON "defects"("assignee_id");
ALTER TABLE "defects" ADD CONSTRAINT "defects_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "defects" ADD CONSTRAINT "defects_assignee_id_fkey" FOREIGN KEY ("assignee_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "defect_field_values" (
  "defect_id" CHAR(26) NOT NULL,
  "field_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "value" JSONB NOT NULL,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "defect_field_values_pkey" PRIMARY KEY ("defect_id", "field_id")
);
CREATE INDEX "defect_field_values_field_id_idx" ON "defect_field_values"("field_id");
ALTER TABLE "defect_field_values" ADD CONSTRAINT "defect_field_values_defect_id_fkey" FOREIGN KEY ("defect_id") REFERENCES "defects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "defect_field_values" ADD CONSTRAINT "defect_field_values_field_id_fkey" FOREIGN KEY ("field_id") REFERENCES "custom_fields"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A defect linked to a result attempt (test_run_results row); both sides delete the link.
CREATE TABLE "defect_result_links" (
  "defect_id" CHAR(26) NOT NULL,
  "result_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "defect_result_links_pkey" PRIMARY KEY ("defect_id", "result_id")
);
CREATE INDEX "defect_result_links_result_id_idx" ON "defect_result_links"("result_id");
ALTER TABLE "defect_result_links" ADD CONSTRAINT "defect_result_links_defect_id_fkey" FOREIGN KEY ("defect_id") REFERENCES "defects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "defect_result_links" ADD CONSTRAINT "defect_result_links_result_id_fkey" FOREIGN KEY ("result_id") REFERENCES "test_run_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "comments" ADD COLUMN "defect_id" CHAR(26);
CREATE INDEX "comments_defect_id_id_idx" ON "comments"("defect_id", "id");
ALTER TABLE "comments" ADD CONSTRAINT "comments_defect_id_fkey" FOREIGN KEY ("defect_id") REFERENCES "defects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A file attached to a result attempt (optionally at one of the run case's steps), committed from
-- a staged upload like step attachments.
CREATE TABLE "result_attachments" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "run_id" CHAR(26) NOT NULL,
  "result_id" CHAR(26) NOT NULL,
  "run_case_step_id" CHAR(26),
  "staged_key" TEXT NOT NULL,
  "storage_key" TEXT NOT NULL,
  "file_name" TEXT NOT NULL,
  "content_type" TEXT NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "position" INTEGER NOT NULL DEFAULT 0,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "result_attachments_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "result_attachments_staged_key_key" ON "result_attachments"("staged_key");
CREATE INDEX "result_attachments_result_id_position_idx" ON "result_attachments"("result_id", "position");
CREATE INDEX "result_attachments_run_id_idx" ON "result_attachments"("run_id");
ALTER TABLE "result_attachments" ADD CONSTRAINT "result_attachments_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "result_attachments" ADD CONSTRAINT "result_attachments_result_id_fkey" FOREIGN KEY ("result_id") REFERENCES "test_run_results"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "result_attachments" ADD CONSTRAINT "result_attachments_run_case_step_id_fkey" FOREIGN KEY ("run_case_step_id") REFERENCES "test_run_case_steps"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The audit export reads a window of one organization's log in order.
CREATE INDEX "audit_events_org_id_created_at_id_idx" ON "audit_events"("org_id", "created_at", "id");
