import { parse, serialize } from 'cookie';
import { SESSION_IDLE_MS } from '../src/foundation/auth/auth.schemas.ts';
import type { Config } from '../src/kernel/config.ts';

/** The largest JSON body any route takes (decisions: "Malformed and oversized bodies"). */
export const JSON_BODY_LIMIT = '10mb';
export const JSON_BODY_BYTES = 10 * 1024 * 1024;

export type HttpSettings = { sessionCookieName: string; secureCookies: boolean };

/**
 * Decisions §1: `__Host-tcms_session` with Secure whenever people reach the service over https
 * (TCMS_PUBLIC_URL), and always in production; `tcms_session` otherwise. The scheme decides, not
 * NODE_ENV alone: a staging server run with NODE_ENV=development behind https keeps its cookie off
 * plain http too.
 */
export function httpSettings(config: Pick<Config, 'production' | 'publicUrl'>): HttpSettings {
  const secureCookies = config.production || new URL(config.publicUrl).protocol === 'https:';
  return { sessionCookieName: secureCookies ? '__Host-tcms_session' : 'tcms_session', secureCookies };
}

export const readSessionCookie = (header: string | undefined, settings: HttpSettings) =>
  header ? parse(header)[settings.sessionCookieName] : undefined;

/** Sets the session cookie, or clears it when `token` is null. */
export const sessionCookieHeaders = (settings: HttpSettings, token: string | null) =>
  serialize(settings.sessionCookieName, token ?? '', {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: settings.secureCookies,
    maxAge: token === null ? 0 : Math.floor(SESSION_IDLE_MS / 1000),
  });
