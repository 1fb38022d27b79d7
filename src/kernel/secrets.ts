import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** Passwords: argon2id (memory-hard), via @node-rs/argon2's prebuilt binding. */
export const hashPassword = (password: string) => hash(password);
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

// Verified against when an email is unknown, so that both failures take the same time.
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hash('decoy password, never matches'));

export const API_TOKEN_PREFIX = 'tcms_';
/** OAuth access and refresh tokens (contract §16); neither starts with API_TOKEN_PREFIX. */
export const OAUTH_ACCESS_TOKEN_PREFIX = 'tcmsat_';
export const OAUTH_REFRESH_TOKEN_PREFIX = 'tcmsrt_';

/** 32 random bytes; only their SHA-256 is stored. */
export function newSecret(prefix = ''): { secret: string; hash: string } {
  const secret = prefix + randomBytes(32).toString('base64url');
  return { secret, hash: sha256(secret) };
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
