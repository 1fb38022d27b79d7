-- Operations: an idempotency key is written once, together with its response, in the request's
-- own transaction (so it can no longer be "in flight" as a row); configuration names are unique
-- among live siblings through the index itself.

DELETE FROM "idempotency_keys" WHERE "completed_at" IS NULL;
ALTER TABLE "idempotency_keys" DROP COLUMN "completed_at";
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_status" SET NOT NULL;
ALTER TABLE "idempotency_keys" ALTER COLUMN "response_headers" SET NOT NULL;

CREATE UNIQUE INDEX "configuration_groups_live_name_key" ON "configuration_groups"("project_id", lower("name")) WHERE "deleted_at" IS NULL;
CREATE UNIQUE INDEX "configurations_live_name_key" ON "configurations"("group_id", lower("name")) WHERE "deleted_at" IS NULL;

-- Failed sign-ins per address and per client IP (rate-limiter-flexible's RateLimiterPrisma).
CREATE TABLE "login_throttle" (
  "key" TEXT NOT NULL,
  "points" INTEGER NOT NULL,
  "expire" TIMESTAMPTZ(3),
  CONSTRAINT "login_throttle_pkey" PRIMARY KEY ("key")
);
