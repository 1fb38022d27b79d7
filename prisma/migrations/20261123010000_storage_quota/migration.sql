-- Storage quota: the bytes each organization keeps in file storage, charged before they are
-- written and given back when their objects go; staged uploads get a row each so that a commit
-- or the sweep ends them exactly once; an avatar's size is kept on its project.

CREATE TABLE "storage_usage" (
  "org_id" CHAR(26) NOT NULL,
  "used_bytes" BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT "storage_usage_pkey" PRIMARY KEY ("org_id")
);
ALTER TABLE "storage_usage" ADD CONSTRAINT "storage_usage_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "staged_uploads" (
  "storage_key" TEXT NOT NULL,
  "org_id" CHAR(26) NOT NULL,
  "file_name" TEXT NOT NULL,
  "content_type" TEXT NOT NULL,
  "size_bytes" INTEGER NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "staged_uploads_pkey" PRIMARY KEY ("storage_key")
);
CREATE INDEX "staged_uploads_created_at_idx" ON "staged_uploads"("created_at");
ALTER TABLE "staged_uploads" ADD CONSTRAINT "staged_uploads_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "projects" ADD COLUMN "avatar_size_bytes" INTEGER NOT NULL DEFAULT 0;

-- Committed attachments are known by size; they count from the start. Avatars and staged
-- uploads stored before this migration were never measured and are not counted.
INSERT INTO "storage_usage" ("org_id", "used_bytes")
SELECT "org_id", SUM("size_bytes") FROM "step_attachments" GROUP BY "org_id";
