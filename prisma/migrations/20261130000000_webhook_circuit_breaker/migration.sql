-- The circuit breaker of a webhook (decisions §13), shared by every process that sends.
-- breaker_cooldown_ms NULL: closed, deliveries go as fast as the dispatcher allows. Otherwise
-- deliveries wait until breaker_held_until, then go one at a time (each a probe) until one
-- succeeds; it is the last cool-down, which a failed probe doubles (0 after a re-activation).
ALTER TABLE "webhooks" ADD COLUMN "breaker_cooldown_ms" INTEGER;
ALTER TABLE "webhooks" ADD COLUMN "breaker_held_until" TIMESTAMPTZ(3);
