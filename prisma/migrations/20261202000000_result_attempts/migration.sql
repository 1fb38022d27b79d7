-- Attempts are results (docs/decisions.md, "Attempts are results"): every run of an imported,
-- retried test is a result of its own, numbered from 1 within its import; a result not from an
-- import is attempt 1. The `attempts` array on a final result is no longer written: a result
-- imported before keeps only its final attempt, numbered as the last of those it stood for.
ALTER TABLE "test_run_results" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 1;
UPDATE "test_run_results" SET "attempt" = GREATEST(jsonb_array_length("attempts"), 1)
WHERE jsonb_typeof("attempts") = 'array';
ALTER TABLE "test_run_results" DROP COLUMN "attempts";
