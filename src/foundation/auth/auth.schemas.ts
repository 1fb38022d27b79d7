import { z } from 'zod';

/** Sessions expire after 30 days without a request (contract §1). */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;

/** Email addresses are compared and stored trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const EMAIL_MAX = 320;
/** An email address as requests take it. */
export const emailSchema = z.email().max(EMAIL_MAX).meta({ example: 'ada@example.com' });
