import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parse, serialize } from 'cookie';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response, type Router } from 'express';
import { openRequest, type RequestCredentials } from '../../src/foundation/request.ts';
import { localeOf } from '../../src/kernel/i18n.ts';
import { errorReply, fromExpress, type ParserError } from '../errors.ts';
import { type HttpSettings, readSessionCookie, sessionCookieHeaders } from '../http-settings.ts';
import { frame } from './frame.ts';
import { html } from './html.ts';
import {
  CSRF_FIELD,
  csrfCookieName,
  type FormValues,
  type PageAnswer,
  type PageDefinition,
  type PageRequest,
  type SessionIdentity,
  signInPath,
  tooManySentence,
} from './page.ts';
import { FRAME } from './texts.ts';

/** Serves the pages (page.ts): their locale, session, CSRF rule, headers and failures, in one place. */

const firstValues = (source: unknown): FormValues => {
  const values: FormValues = {};
  for (const [key, value] of Object.entries((source ?? {}) as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') values[key] = first;
  }
  return values;
};

function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

const PAGE_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  // Keeps the origin on our own form posts (the CSRF rule reads it) and gives nothing to other sites.
  'Referrer-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

type Allowed = { formTargets: string[]; widgetOrigins: string[] };

const sources = (origins: string[]) => origins.map((origin) => ` ${origin}`).join('');

/** A page with a script of its own (`PageAnswer.script`) runs it by the nonce and may connect to this service. */
function contentSecurityPolicy(nonce: string, allowed: Allowed, ownScript: boolean): string {
  const widgets = allowed.widgetOrigins;
  const scripts = ownScript ? [`'nonce-${nonce}'`, ...widgets] : widgets;
  const connections = ownScript ? ["'self'", ...widgets] : widgets;
  return (
    `default-src 'none'; style-src 'nonce-${nonce}'; img-src 'self'; form-action 'self'${sources(allowed.formTargets)}; ` +
    (scripts.length ? `script-src${sources(scripts)}; ` : '') +
    (widgets.length ? `frame-src${sources(widgets)}; ` : '') +
    (connections.length ? `connect-src${sources(connections)}; ` : '') +
    "base-uri 'none'; frame-ancestors 'none'"
  );
}

const credentialsOf = (req: Request, http: HttpSettings): RequestCredentials => ({
  method: req.method,
  sessionToken: readSessionCookie(req.headers.cookie, http),
  origin: req.get('origin'),
  host: req.get('host'),
  acceptLanguage: req.get('accept-language'),
});

/** The signed-in person of a page's credentials, or null when the cookie names no live session. */
export async function sessionOf(credentials: RequestCredentials): Promise<SessionIdentity | null> {
  if (!credentials.sessionToken) return null;
  const outcome = await openRequest({ caller: 'user' }, credentials);
  if (outcome.kind === 'refused') {
    if (outcome.error.code === 'unauthorized') return null;
    throw outcome.error;
  }
  return outcome.identity as SessionIdentity;
}

function send(res: Response, page: PageRequest, answer: PageAnswer, allowed: Allowed): void {
  if ('redirect' in answer) {
    if (answer.session) res.append('Set-Cookie', sessionCookieHeaders(page.http, answer.session.token));
    res.status(303).set(PAGE_HEADERS).location(answer.redirect).end();
    return;
  }
  const nonce = randomBytes(16).toString('base64');
  res
    .status(answer.status ?? (answer.errors?.length ? 422 : 200))
    .set({ ...PAGE_HEADERS, 'Content-Security-Policy': contentSecurityPolicy(nonce, allowed, answer.script !== undefined) })
    .type('html')
    .send(frame(page, nonce, answer).text);
}

/** A failure no page handled: its sentence, under the status the API would answer. */
export function failurePage(page: PageRequest, error: unknown): PageAnswer {
  const reply = errorReply(error, page.req.log);
  const text = FRAME[page.locale];
  if (reply.status >= 500) return { status: reply.status, title: text.failedTitle, body: html`<p>${text.failed}</p>` };
  if (reply.status === 429)
    return { status: 429, title: text.problem, body: html`<p>${tooManySentence(page, reply.headers['Retry-After'])}</p>` };
  return { status: reply.status, title: text.problem, body: html`<p>${reply.body.error.message}</p>` };
}

/** Answers a request served outside the pages router (the OAuth consent) in the pages' frame. */
export const sendPage = (res: Response, page: PageRequest, answer: PageAnswer, formTargets: string[] = []) =>
  send(res, page, answer, { formTargets, widgetOrigins: [] });

/** The request as a page sees it (no one signed in yet); a browser without a CSRF cookie gets one with the answer. */
export function pageRequestOf(req: Request, res: Response, http: HttpSettings): PageRequest {
  let csrfToken = parse(req.headers.cookie ?? '')[csrfCookieName(http)];
  if (!csrfToken || !/^[\w-]{43}$/.test(csrfToken)) {
    csrfToken = randomBytes(32).toString('base64url');
    res.append(
      'Set-Cookie',
      serialize(csrfCookieName(http), csrfToken, { httpOnly: true, sameSite: 'strict', path: '/', secure: http.secureCookies }),
    );
  }
  return {
    req,
    locale: localeOf(req.get('accept-language')),
    identity: null,
    csrfToken,
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    http,
    credentials: credentialsOf(req, http),
    query: firstValues(req.query),
  };
}

/** The CSRF rule: the posted form carries the token of the browser's own cookie (a new cookie does not count). */
export const carriesCsrfToken = (page: PageRequest) =>
  sameToken(firstValues(page.req.body)[CSRF_FIELD], parse(page.req.headers.cookie ?? '')[csrfCookieName(page.http)]);

function pageHandler(definition: PageDefinition, http: HttpSettings): RequestHandler {
  return async (req, res) => {
    res.locals.route = definition.path;
    const page = pageRequestOf(req, res, http);
    let answer: PageAnswer;
    try {
      page.identity = await sessionOf(page.credentials);
      if (definition.audience === 'signed-in' && !page.identity) answer = { redirect: signInPath(req.originalUrl) };
      else if (req.method === 'GET' || !definition.post) answer = await definition.get(page);
      else {
        answer = carriesCsrfToken(page)
          ? await definition.post(page, firstValues(req.body))
          : withError(await definition.get(page), FRAME[page.locale].formExpired);
      }
    } catch (error) {
      answer = failurePage(page, error);
    }
    send(res, page, answer, { formTargets: definition.formTargets?.(page) ?? [], widgetOrigins: definition.widgetOrigins?.(page) ?? [] });
  };
}

/** The answer again, refused (403) with `message` first in its error summary. */
export const withError = (answer: PageAnswer, message: string): PageAnswer =>
  'redirect' in answer ? answer : { ...answer, status: 403, errors: [{ message }, ...(answer.errors ?? [])] };

/** A form the pages could not read (too large, too many fields, a bad encoding): a page, with the API's status. */
function unreadableForm(http: HttpSettings): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const page = pageRequestOf(req, res, http);
    send(res, page, failurePage(page, fromExpress(error as ParserError)), { formTargets: [], widgetOrigins: [] });
  };
}

/** Serves the pages: GET, and POST for those with a form. */
export function pagesRouter(pages: PageDefinition[], http: HttpSettings): Router {
  const router = express.Router();
  const forms = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 100 });
  for (const definition of pages) {
    const handler = pageHandler(definition, http);
    router.get(definition.path, handler);
    if (definition.post) router.post(definition.path, forms, handler);
  }
  router.use(unreadableForm(http));
  return router;
}
