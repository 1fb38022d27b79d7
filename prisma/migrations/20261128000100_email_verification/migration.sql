-- Email verification (decisions §18). Accounts that exist before it count as verified, so that
-- turning TCMS_REQUIRE_EMAIL_VERIFICATION on does not lock their owners out of inviting.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz(3);
ALTER TABLE users ADD COLUMN email_verification_token_hash text;
ALTER TABLE users ADD COLUMN email_verification_sent_at timestamptz(3);
UPDATE users SET email_verified_at = created_at;
CREATE UNIQUE INDEX users_email_verification_token_hash_key ON users (email_verification_token_hash);
