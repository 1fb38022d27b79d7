-- The rate limiter counts several budgets of an organization in one table: `requests` (the
-- per-minute API ceiling) and `audit_export` (10 exports an hour), each in windows of its own.
ALTER TABLE "rate_limit_windows" ADD COLUMN "bucket" TEXT NOT NULL DEFAULT 'requests';
ALTER TABLE "rate_limit_windows" ALTER COLUMN "bucket" DROP DEFAULT;
ALTER TABLE "rate_limit_windows" DROP CONSTRAINT "rate_limit_windows_pkey";
ALTER TABLE "rate_limit_windows" ADD CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("org_id", "bucket", "window_start");

-- The run an event was recorded for, kept after the run is deleted (run_id, the live link, is
-- nulled then): the audit export tells a purged run from an unknown one by it.
ALTER TABLE "audit_events" ADD COLUMN "origin_run_id" CHAR(26);
UPDATE "audit_events" SET "origin_run_id" = "run_id" WHERE "run_id" IS NOT NULL;
UPDATE "audit_events" SET "origin_run_id" = "entity_ulid" WHERE "origin_run_id" IS NULL AND "entity_type" = 'test_run';

-- The audit log stays append-only (origin_run_id among what never changes), with one more
-- exception: erasing a user's identity (`tcms user erase`) nulls the actor reference and blanks
-- the email and name snapshot together, on events that still name the user. Nothing else about
-- an event may change.
CREATE OR REPLACE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  erasing BOOLEAN;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (SELECT 1 FROM "organizations" WHERE "id" = OLD."org_id") THEN
      RETURN OLD; -- the organization itself is being removed
    END IF;
    RAISE EXCEPTION 'audit_events is append-only';
  END IF;
  erasing := OLD."actor_kind" = 'user' AND OLD."actor_user_id" IS NOT NULL
    AND NEW."actor_user_id" IS NULL AND NEW."actor_email" IS NULL AND NEW."actor_name" IS NULL;
  IF (NEW."id", NEW."org_id", NEW."action", NEW."actor_kind",
      NEW."entity_type", NEW."entity_ulid", NEW."entity_label", NEW."metadata", NEW."created_at", NEW."origin_run_id")
     IS DISTINCT FROM
     (OLD."id", OLD."org_id", OLD."action", OLD."actor_kind",
      OLD."entity_type", OLD."entity_ulid", OLD."entity_label", OLD."metadata", OLD."created_at", OLD."origin_run_id")
     OR (NOT erasing AND (NEW."actor_email", NEW."actor_name") IS DISTINCT FROM (OLD."actor_email", OLD."actor_name"))
     OR (NEW."actor_user_id" IS NOT NULL AND NEW."actor_user_id" IS DISTINCT FROM OLD."actor_user_id")
     OR (NEW."actor_token_id" IS NOT NULL AND NEW."actor_token_id" IS DISTINCT FROM OLD."actor_token_id")
     OR (NEW."run_id" IS NOT NULL AND NEW."run_id" IS DISTINCT FROM OLD."run_id") THEN
    RAISE EXCEPTION 'audit_events is append-only';
  END IF;
  RETURN NEW;
END;
$$;
