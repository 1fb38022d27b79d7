import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/**
 * The `webhook-signature` header of the Standard Webhooks scheme: `v1,<base64 HMAC-SHA256>` over
 * `<id>.<timestamp>.<body>` for each secret (space-separated, so that a receiver still holding the
 * previous secret after a rotation verifies too). A secret is `whsec_` + base64 of its key bytes.
 */
export function signatureHeader(secrets: string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
      return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
    })
    .join(' ');
}

/** A new signing secret: 24 random bytes, in the Standard Webhooks `whsec_<base64>` form. */
export const newWebhookSecret = () => `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
