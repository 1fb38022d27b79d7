-- Public run share links (decisions §15): a run readable without credentials by whoever holds
-- the token. Only the token's SHA-256 is kept; revoking a link deletes its row.
CREATE TABLE "share_links" (
    "id" CHAR(26) NOT NULL,
    "org_id" CHAR(26) NOT NULL,
    "run_id" CHAR(26) NOT NULL,
    "token_hash" TEXT NOT NULL,
    -- null: the link never expires.
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "share_links_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "share_links_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "test_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "share_links_token_hash_key" ON "share_links"("token_hash");
CREATE INDEX "share_links_run_id_created_at_idx" ON "share_links"("run_id", "created_at");
