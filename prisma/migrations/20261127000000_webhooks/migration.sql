-- Webhooks (decisions §13): subscriptions of an organization to its audit events, and the
-- outbox of their deliveries, written in the transaction of the event they carry.
CREATE TABLE "webhooks" (
    "id" CHAR(26) NOT NULL,
    "org_id" CHAR(26) NOT NULL,
    "url" TEXT NOT NULL,
    -- Audit actions, `*`, or prefixes such as `run.*`.
    "events" TEXT[] NOT NULL,
    "description" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    -- After a rotation the previous secret keeps signing next to the new one until this moment.
    "previous_secret" TEXT,
    "previous_secret_until" TIMESTAMPTZ(3),
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhooks_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "webhooks_org_id_id_idx" ON "webhooks"("org_id", "id");

-- status: pending (waiting for its next attempt, or being sent while `lease_until` is ahead),
-- delivered, failed (its last attempt failed).
CREATE TABLE "webhook_deliveries" (
    "id" CHAR(26) NOT NULL,
    "org_id" CHAR(26) NOT NULL,
    "webhook_id" CHAR(26) NOT NULL,
    "event_id" CHAR(26) NOT NULL,
    "action" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lease_until" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "audit_events"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "webhook_deliveries_webhook_id_id_idx" ON "webhook_deliveries"("webhook_id", "id");
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");
-- The deliveries being sent (leased), counted per webhook to bound how many one receiver holds.
CREATE INDEX "webhook_deliveries_leased_idx" ON "webhook_deliveries"("webhook_id") WHERE "lease_until" IS NOT NULL;

-- A ULID made by the database, for rows a statement creates in numbers it cannot know
-- beforehand (the deliveries of an audit event): 48 bits of milliseconds, 80 random bits.
CREATE FUNCTION tcms_ulid() RETURNS TEXT LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet CONSTANT TEXT := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  ms CONSTANT BIGINT := floor(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT;
  ulid TEXT := '';
BEGIN
  FOR shift IN REVERSE 9..0 LOOP
    ulid := ulid || substr(alphabet, ((ms >> (shift * 5)) & 31)::INT + 1, 1);
  END LOOP;
  FOR position IN 1..16 LOOP
    ulid := ulid || substr(alphabet, floor(random() * 32)::INT + 1, 1);
  END LOOP;
  RETURN ulid;
END
$$;
