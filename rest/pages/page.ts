import type { Request } from 'express';
import { type ZodType, z } from 'zod';
import type { Identity, RequestContext } from '../../src/foundation/context.ts';
import { openRequest, type RequestCredentials } from '../../src/foundation/request.ts';
import { AppError, type ErrorCode, fromValidationIssues } from '../../src/kernel/errors.ts';
import type { Locale } from '../../src/kernel/i18n.ts';
import { errorReply } from '../errors.ts';
import type { HttpSettings } from '../http-settings.ts';
import { type Html, html } from './html.ts';
import { FRAME, fill } from './texts.ts';

/**
 * The pages for people (contract decisions §19): server-rendered HTML, no script, no external
 * asset, plain form posts. Each page goes through the same request pipeline (`openRequest`) and
 * services as the API; this module is their one frame: locale, session, CSRF, headers, errors.
 */

export type SessionIdentity = Extract<Identity, { kind: 'session' }>;

/** What a page knows of its request. */
export type PageRequest = {
  req: Request;
  locale: Locale;
  /** The signed-in person, when the session cookie names a live session. */
  identity: SessionIdentity | null;
  /** Put in every form (`csrfField`); a post without it is refused. */
  csrfToken: string;
  ip: string;
  http: HttpSettings;
  /** The request's credentials, as the request pipeline reads them. */
  credentials: RequestCredentials;
  /** The first value of each query parameter. */
  query: Record<string, string>;
};

/** A field a form names in its error summary: `field` is the input's name, linked by `#field-{name}`. */
export type FieldError = { field?: string; message: string };

export type PageAnswer =
  | {
      title: string;
      body: Html;
      status?: number;
      errors?: FieldError[];
      /** CSS of this page, added to the frame's style. */
      style?: string;
      /**
       * The page's own inline script, a constant (never text from a request): the answer's nonce
       * allows it, and the CSP lets it connect to this service only (the dashboard's GraphQL).
       */
      script?: string;
    }
  | { redirect: string; session?: { token: string | null } };

export type PageDefinition = {
  path: string;
  /** `signed-in`: a signed-out person is sent to `/signin?next=<this page>` (303). */
  audience?: 'anyone' | 'signed-in';
  get(page: PageRequest): Promise<PageAnswer>;
  post?(page: PageRequest, form: FormValues): Promise<PageAnswer>;
  /** Where this page's forms may lead beyond this service (the OAuth consent's redirect URIs), for its CSP. */
  formTargets?(page: PageRequest): string[];
  /** Origins whose scripts and frames this page loads (an operator's bot-check widget), for its CSP. */
  widgetOrigins?(page: PageRequest): string[];
};

export type FormValues = Record<string, string>;

export const CSRF_FIELD = '_csrf';
export const csrfCookieName = (http: HttpSettings) => (http.secureCookies ? '__Host-tcms_csrf' : 'tcms_csrf');

/**
 * `next` accepts only a path of this service: one leading slash, no scheme, no host, no
 * backslash (browsers read `/\evil` as `//evil`). Anything else is the fallback.
 */
export function localPath(next: string | undefined, fallback = '/'): string {
  if (!next || next.length > 2000 || !next.startsWith('/') || next.startsWith('//') || /[\\\s]/.test(next)) return fallback;
  const resolved = new URL(next, 'http://tcms.invalid');
  return resolved.origin === 'http://tcms.invalid' ? `${resolved.pathname}${resolved.search}${resolved.hash}` : fallback;
}

export const signInPath = (next: string) => `/signin?${new URLSearchParams({ next })}`;

/** zod's own sentences for a failed check, in each language of the pages. */
const ZOD_LOCALES = { en: z.locales.en().localeError, es: z.locales.es().localeError } satisfies Record<Locale, unknown>;

/** Validates a form with the API's zod schema and answers the field errors a page shows, in the page's language. */
export function readForm<T>(page: PageRequest, schema: ZodType<T>, values: unknown): { value: T } | { errors: FieldError[] } {
  const result = schema.safeParse(values, { error: ZOD_LOCALES[page.locale] });
  if (result.success) return { value: result.data };
  return { errors: fieldErrorsOf(fromValidationIssues(result.error.issues, 'body')) };
}

/** The fields an AppError's validation issues name, else its message as a sentence of its own. */
export function fieldErrorsOf(error: unknown): FieldError[] {
  if (!(error instanceof AppError)) throw error;
  const issues = (error.details?.issues as Array<{ path: Array<string | number>; message: string }> | undefined) ?? [];
  if (issues.length === 0) return [{ message: error.message }];
  return issues.map((issue) => ({ field: String(issue.path[0] ?? ''), message: `${issue.path.join('.')}: ${issue.message}` }));
}

/** The frame's sentence for a 429: how many minutes to wait (at least one). */
export const tooManySentence = (page: PageRequest, retryAfterSeconds: unknown) =>
  fill(FRAME[page.locale].tooMany, { minutes: Math.max(1, Math.ceil(Number(retryAfterSeconds ?? 60) / 60)) });

/**
 * A service's refusal as a page says it: the sentence `sentences` has for its code (a 429: how
 * long to wait), under the status the API answers it with. Anything else is thrown on, to the
 * failure page.
 */
export function refusal(
  page: PageRequest,
  error: unknown,
  sentences: Partial<Record<ErrorCode, string>>,
): { status: number; errors: FieldError[] } {
  if (!(error instanceof AppError)) throw error;
  const message = error.code === 'too_many_requests' ? tooManySentence(page, error.details?.retryAfterSeconds) : sentences[error.code];
  if (message === undefined) throw error;
  return { status: errorReply(error).status, errors: [{ message }] };
}

/** The hidden field every form carries. */
export const csrfField = (page: PageRequest) => html`<input type="hidden" name="${CSRF_FIELD}" value="${page.csrfToken}">`;

/**
 * The person's context in one of their organizations, through the request pipeline (as the API's
 * `org` routes); without `orgUlid`, the one the API acts in without X-Organization-Id.
 */
export async function enterOrganization(page: PageRequest, orgUlid?: string): Promise<RequestContext> {
  const outcome = await openRequest({ caller: 'org', orgFromPath: orgUlid }, page.credentials);
  if (outcome.kind === 'refused') throw outcome.error;
  return outcome.ctx!;
}
