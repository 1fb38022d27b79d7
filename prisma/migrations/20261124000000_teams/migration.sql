-- Teams (decisions §8–§10): suspended memberships, invitations, the mail outbox and its
-- suppression list, the local subscription, user groups, and project access (mode, owner,
-- individual grants and revocations, group assignments).

ALTER TABLE "memberships" ADD COLUMN "suspended_at" TIMESTAMPTZ(3);
CREATE INDEX "memberships_org_id_created_at_id_idx" ON "memberships"("org_id", "created_at", "id");

CREATE TABLE "invitations" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "email" TEXT NOT NULL,
  "role" TEXT NOT NULL,
  "locale" TEXT NOT NULL DEFAULT 'en',
  -- pending, accepted, revoked; a pending invitation past expires_at reads as expired, and is
  -- stored as expired once a new invitation to the same address supersedes it.
  "status" TEXT NOT NULL DEFAULT 'pending',
  "grant_all_private_projects" BOOLEAN NOT NULL DEFAULT false,
  "token_hash" CHAR(64) NOT NULL,
  "invited_by_user_id" CHAR(26),
  "invited_by_name" TEXT NOT NULL,
  "expires_at" TIMESTAMPTZ(3) NOT NULL,
  "accepted_at" TIMESTAMPTZ(3),
  "accepted_by_user_id" CHAR(26),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "invitations_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invitations_token_hash_key" ON "invitations"("token_hash");
CREATE INDEX "invitations_org_id_status_id_idx" ON "invitations"("org_id", "status", "id");
-- One pending invitation per address and organization.
CREATE UNIQUE INDEX "invitations_pending_email_key" ON "invitations"("org_id", "email") WHERE "status" = 'pending';
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_user_id_fkey" FOREIGN KEY ("invited_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_user_id_fkey" FOREIGN KEY ("accepted_by_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Outgoing mail, written in the transaction of what causes it and sent after commit by any
-- server process (rows are claimed with FOR UPDATE SKIP LOCKED and leased while being sent).
CREATE TABLE "mail_outbox" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26),
  -- What the mail is about, e.g. ('invitation', <invitation ulid>): readouts find its delivery here.
  "subject_type" TEXT NOT NULL,
  "subject_id" CHAR(26) NOT NULL,
  "recipient" TEXT NOT NULL,
  "subject" TEXT NOT NULL,
  "text_body" TEXT NOT NULL,
  "html_body" TEXT,
  -- queued, sending, sent, failed, suppressed
  "status" TEXT NOT NULL DEFAULT 'queued',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "lease_until" TIMESTAMPTZ(3),
  "last_error" TEXT,
  "sent_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "mail_outbox_status_next_attempt_at_idx" ON "mail_outbox"("status", "next_attempt_at");
CREATE INDEX "mail_outbox_subject_type_subject_id_id_idx" ON "mail_outbox"("subject_type", "subject_id", "id");
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Addresses whose server refused the recipient permanently: no mail is attempted to them again.
CREATE TABLE "mail_suppressions" (
  "email" TEXT NOT NULL,
  "reason" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "mail_suppressions_pkey" PRIMARY KEY ("email")
);

-- The seat commitment of the built-in `local` billing provider (decisions §9); no row: no subscription.
CREATE TABLE "subscriptions" (
  "org_id" CHAR(26) NOT NULL,
  "provider" TEXT NOT NULL DEFAULT 'local',
  "seats" INTEGER NOT NULL,
  "status" TEXT NOT NULL DEFAULT 'active',
  "current_period_start" TIMESTAMPTZ(3) NOT NULL,
  "current_period_end" TIMESTAMPTZ(3) NOT NULL,
  "pending_seats" INTEGER,
  "pending_effective_at" TIMESTAMPTZ(3),
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("org_id")
);
CREATE INDEX "subscriptions_pending_effective_at_idx" ON "subscriptions"("pending_effective_at");
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "user_groups" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "user_groups_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "user_groups_org_id_created_at_id_idx" ON "user_groups"("org_id", "created_at", "id");
CREATE UNIQUE INDEX "user_groups_org_id_name_key" ON "user_groups"("org_id", lower("name"));
ALTER TABLE "user_groups" ADD CONSTRAINT "user_groups_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "user_group_members" (
  "group_id" CHAR(26) NOT NULL,
  "user_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "user_group_members_pkey" PRIMARY KEY ("group_id", "user_id")
);
CREATE INDEX "user_group_members_org_id_user_id_idx" ON "user_group_members"("org_id", "user_id");
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_group_members" ADD CONSTRAINT "user_group_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "projects" ADD COLUMN "access_mode" TEXT NOT NULL DEFAULT 'public';
ALTER TABLE "projects" ADD COLUMN "owner_user_id" CHAR(26);
ALTER TABLE "projects" ADD CONSTRAINT "projects_owner_user_id_fkey" FOREIGN KEY ("owner_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A project's allowlist rows: granted, or revoked (a revoked row outranks any group grant).
CREATE TABLE "project_access_members" (
  "project_id" CHAR(26) NOT NULL,
  "user_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "state" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "project_access_members_pkey" PRIMARY KEY ("project_id", "user_id")
);
CREATE INDEX "project_access_members_org_id_user_id_idx" ON "project_access_members"("org_id", "user_id");
ALTER TABLE "project_access_members" ADD CONSTRAINT "project_access_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_access_members" ADD CONSTRAINT "project_access_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "project_group_assignments" (
  "project_id" CHAR(26) NOT NULL,
  "group_id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "project_group_assignments_pkey" PRIMARY KEY ("project_id", "group_id")
);
CREATE INDEX "project_group_assignments_group_id_idx" ON "project_group_assignments"("group_id");
ALTER TABLE "project_group_assignments" ADD CONSTRAINT "project_group_assignments_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_group_assignments" ADD CONSTRAINT "project_group_assignments_group_id_fkey" FOREIGN KEY ("group_id") REFERENCES "user_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;
