-- Foundation: identity, organizations, projects, audit log, idempotency keys, rate-limit windows.

CREATE TABLE "users" (
  "id" CHAR(26) NOT NULL,
  "email" TEXT NOT NULL,
  "password_hash" TEXT NOT NULL,
  "first_name" TEXT NOT NULL,
  "last_name" TEXT NOT NULL,
  "avatar_key" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "organizations" (
  "id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "plan" TEXT NOT NULL DEFAULT 'free',
  "max_projects_override" INTEGER,
  "max_seats_override" INTEGER,
  "max_results_per_month_override" INTEGER,
  "requests_per_minute_override" INTEGER,
  "audit_export_enabled_override" BOOLEAN,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "memberships" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "user_id" CHAR(26) NOT NULL,
  "role" TEXT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "memberships_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "memberships_role_check" CHECK ("role" IN ('owner', 'admin', 'member', 'viewer'))
);
CREATE UNIQUE INDEX "memberships_org_id_user_id_key" ON "memberships"("org_id", "user_id");
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sessions" (
  "id" CHAR(26) NOT NULL,
  "token_hash" CHAR(64) NOT NULL,
  "user_id" CHAR(26) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("token_hash");
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_tokens" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "user_id" CHAR(26) NOT NULL,
  "name" TEXT NOT NULL,
  "role" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "token_hash" CHAR(64) NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "last_used_at" TIMESTAMPTZ(3),
  "expires_at" TIMESTAMPTZ(3),
  "revoked_at" TIMESTAMPTZ(3),
  CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "api_tokens_role_check" CHECK ("role" IN ('admin', 'member', 'viewer'))
);
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");
CREATE INDEX "api_tokens_org_id_user_id_idx" ON "api_tokens"("org_id", "user_id");
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "projects" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "code" TEXT NOT NULL,
  "name" TEXT NOT NULL,
  "description" TEXT,
  "avatar_key" TEXT,
  "avatar_version" INTEGER NOT NULL DEFAULT 0,
  "locked_at" TIMESTAMPTZ(3),
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "projects_org_id_code_key" ON "projects"("org_id", "code");
CREATE INDEX "projects_org_id_created_at_id_idx" ON "projects"("org_id", "created_at", "id");
ALTER TABLE "projects" ADD CONSTRAINT "projects_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "audit_events" (
  "id" CHAR(26) NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "action" TEXT NOT NULL,
  "actor_kind" TEXT NOT NULL,
  "actor_user_id" CHAR(26),
  "actor_token_id" CHAR(26),
  "actor_email" TEXT,
  "actor_name" TEXT,
  "entity_type" TEXT NOT NULL,
  "entity_ulid" CHAR(26) NOT NULL,
  "entity_label" TEXT NOT NULL,
  "run_id" CHAR(26),
  "metadata" JSONB NOT NULL DEFAULT '{}',
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "audit_events_actor_kind_check" CHECK ("actor_kind" IN ('user', 'api_token', 'system'))
);
CREATE INDEX "audit_events_org_id_id_idx" ON "audit_events"("org_id", "id");
CREATE INDEX "audit_events_run_id_id_idx" ON "audit_events"("run_id", "id");
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The audit log is append-only. Deleting a user or token nulls the actor reference (the
-- snapshot of name and email stays); nothing else may change or remove an event.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM "organizations" WHERE "id" = OLD."org_id") THEN
      RETURN OLD; -- the organization itself is being removed
    END IF;
    RAISE EXCEPTION 'audit_events is append-only';
  END IF;
  IF (NEW."id", NEW."org_id", NEW."action", NEW."actor_kind", NEW."actor_email", NEW."actor_name",
      NEW."entity_type", NEW."entity_ulid", NEW."entity_label", NEW."metadata", NEW."created_at")
     IS DISTINCT FROM
     (OLD."id", OLD."org_id", OLD."action", OLD."actor_kind", OLD."actor_email", OLD."actor_name",
      OLD."entity_type", OLD."entity_ulid", OLD."entity_label", OLD."metadata", OLD."created_at")
     OR (NEW."actor_user_id" IS NOT NULL AND NEW."actor_user_id" IS DISTINCT FROM OLD."actor_user_id")
     OR (NEW."actor_token_id" IS NOT NULL AND NEW."actor_token_id" IS DISTINCT FROM OLD."actor_token_id")
     OR (NEW."run_id" IS NOT NULL AND NEW."run_id" IS DISTINCT FROM OLD."run_id") THEN
    RAISE EXCEPTION 'audit_events is append-only';
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();

-- Actor references are nulled, not cascaded, when a user or token is deleted.
CREATE FUNCTION "audit_events_forget_actor"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    UPDATE "audit_events" SET "actor_user_id" = NULL WHERE "actor_user_id" = OLD."id";
  ELSE
    UPDATE "audit_events" SET "actor_token_id" = NULL WHERE "actor_token_id" = OLD."id";
  END IF;
  RETURN OLD;
END;
$$;
CREATE TRIGGER "users_forget_audit_actor" AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_forget_actor"();
CREATE TRIGGER "api_tokens_forget_audit_actor" AFTER DELETE ON "api_tokens"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_forget_actor"();

CREATE TABLE "idempotency_keys" (
  "principal" TEXT NOT NULL,
  "key" TEXT NOT NULL,
  "request_hash" CHAR(64) NOT NULL,
  "response_status" INTEGER,
  "response_headers" JSONB,
  "response_body" TEXT,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "completed_at" TIMESTAMPTZ(3),
  CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("principal", "key")
);
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

CREATE TABLE "rate_limit_windows" (
  "org_id" CHAR(26) NOT NULL,
  "window_start" TIMESTAMPTZ(3) NOT NULL,
  "count" INTEGER NOT NULL,
  CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("org_id", "window_start")
);
