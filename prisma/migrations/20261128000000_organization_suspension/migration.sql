-- Staff suspension of a whole organization (decisions §18): set by `tcms org suspend`.
ALTER TABLE organizations ADD COLUMN suspended_at timestamptz(3);
ALTER TABLE organizations ADD COLUMN suspended_reason text;
