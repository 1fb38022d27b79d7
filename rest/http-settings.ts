import { parse, serialize } from 'cookie';
import type { Config } from '../src/config.ts';
import { SESSION_IDLE_MS } from '../src/auth/auth.schemas.ts';

/** The largest JSON body any route takes (decisions: "Malformed and oversized bodies"). */
export const JSON_BODY_LIMIT = '10mb';
export const JSON_BODY_BYTES = 10 * 1024 * 1024;

export type HttpSettings = { sessionCookieName: string; secureCookies: boolean };

/** Decisions §1: `tcms_session`, or `__Host-tcms_session` with Secure in production. */
export const httpSettings = (config: Config): HttpSettings => ({
  sessionCookieName: config.production ? '__Host-tcms_session' : 'tcms_session',
  secureCookies: config.production,
});

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
