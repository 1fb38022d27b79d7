import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { settings } from './config.ts';

/**
 * Passwords: argon2id (memory-hard), via @node-rs/argon2's prebuilt binding, at the cost of
 * TCMS_PASSWORD_MEMORY_KIB and TCMS_PASSWORD_PASSES. A hash carries its own parameters, so one made
 * at another cost still verifies.
 */
export function hashPassword(password: string): Promise<string> {
  const { memoryKib, passes } = settings().passwordHashing;
  // The binding's default algorithm is argon2id (its const enum cannot be named here).
  return hash(password, { memoryCost: memoryKib, timeCost: passes, parallelism: 1 });
}
export const verifyPassword = (passwordHash: string, password: string) => verify(passwordHash, password);

// Verified against when an email is unknown, so that both failures take the same time.
let decoyHash: Promise<string> | undefined;
export const decoyPasswordHash = () => (decoyHash ??= hashPassword('decoy password, never matches'));

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
