-- The reports of contract §20 (docs/decisions.md, "Reports") read a defect's status history from
-- its defect.updated audit events: this index finds them by defect, and only them.
CREATE INDEX "audit_events_defect_updates_idx" ON "audit_events" ("entity_ulid", "created_at") WHERE "action" = 'defect.updated';
