import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { z } from 'zod';
import { assertNotCrossSite, enterOrganization, identify, unauthorized } from '../src/auth/authenticate.ts';
import type { Identity, RequestContext } from '../src/context.ts';
import { localeOf } from '../src/i18n.ts';
import type { UploadedFile } from '../src/storage/file-storage.ts';
import { AppError, fromValidationIssues, toAppError } from '../src/errors.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  parseIdempotencyKey,
  releaseIdempotencyKey,
} from '../src/idempotency/idempotency.service.ts';
import { validate } from '../src/validation.ts';
import { consumeRequest, type RateLimitState } from '../src/rate-limit/rate-limit.service.ts';
import type { HttpSettings } from './http-settings.ts';
import { readSessionCookie, sessionCookieHeaders } from './http-settings.ts';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * - `none`: no credentials read (health, signup, login).
 * - `user`: a signed-in person, no organization needed; bearer tokens answer 401.
 * - `org`: a session or a token, acting in one organization (most routes).
 */
export type AuthMode = 'none' | 'user' | 'org';

type Schema = z.ZodType;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteInput<P, Q, B> = {
  params: Output<P>;
  query: Output<Q>;
  body: Output<B>;
  /** The uploaded file of an `upload` route (the first, when several are allowed). */
  file: Buffer | undefined;
  /** Every uploaded `file` part of an `upload` route, in order. */
  files: UploadedFile[];
  identity: Identity;
  /** Present on `org` routes. */
  ctx: RequestContext;
};

/** What a handler may answer besides a plain JSON body. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly session?: { token: string | null },
  ) {}
}

export type RouteDefinition<P extends Schema | undefined = Schema | undefined, Q extends Schema | undefined = Schema | undefined, B extends Schema | undefined = Schema | undefined> = {
  method: Method;
  /** OpenAPI-style path below /api/v1, e.g. `/projects/{projectId}`. */
  path: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  /** Session-only routes (decisions §1) answer 401 to bearer tokens. */
  sessionOnly?: boolean;
  /** The path parameter naming the organization of an `/orgs/{orgUlid}` route. */
  orgParam?: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * A multipart upload of parts named `file`: one, or up to `maxFiles` (multer stops reading at
   * maxFiles + 1 parts, so the service can answer its own error for one too many).
   */
  upload?: { maxBytes: number; description: string; maxFiles?: number };
  success: { status: number; description: string; schema?: Schema };
  /** Documented error statuses beyond 401/422 that every authenticated route may answer. */
  errors?: number[];
  handle(input: RouteInput<P, Q, B>): Promise<unknown>;
};

/** Declares a route; `mountRoutes` serves it and `buildOpenApiDocument` documents it. */
export const defineRoute = <P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined>(
  route: RouteDefinition<P, Q, B>,
) => route as unknown as RouteDefinition;

const UNSAFE = new Set<Method>(['post', 'put', 'patch', 'delete']);

export const errorBody = (error: AppError) => ({
  error: { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) },
});

export const errorReply = (error: unknown): Reply => {
  const appError = toAppError(error);
  if (appError.code === 'internal_error' && !(error instanceof AppError)) console.error(error);
  return new Reply(appError.status, errorBody(appError), appError.headers);
};

function send(res: Response, reply: Reply, settings: HttpSettings): void {
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers)) res.setHeader(name, value);
  if (reply.session) res.append('Set-Cookie', sessionCookieHeaders(settings, reply.session.token));
  if (reply.body === undefined || reply.status === 204) res.end();
  else if (Buffer.isBuffer(reply.body)) res.send(reply.body);
  else res.json(reply.body);
}

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAt / 1000)),
  };
}

const parse = (schema: Schema | undefined, value: unknown, location: 'query' | 'params' | 'body') =>
  schema ? validate(schema, value, location) : undefined;

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) && !Buffer.isBuffer(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  ) ?? 'null';

/** The identity of a request for Idempotency-Key: method, path and body (files by their digests). */
function fingerprint(req: Request, files: UploadedFile[]): string {
  const hash = createHash('sha256').update(`${req.method} ${req.originalUrl}\n`).update(canonicalJson(req.body ?? null));
  for (const file of files) hash.update('\n').update(createHash('sha256').update(file.buffer).digest('hex'));
  return hash.digest('hex');
}

const principalOf = (identity: Identity, ctx: RequestContext | undefined) =>
  identity.kind === 'api_token' ? `token:${identity.token.id}` : `user:${identity.user.id}:${ctx?.org.id ?? ''}`;

function receiveUpload(req: Request, res: Response, upload: NonNullable<RouteDefinition['upload']>): Promise<UploadedFile[]> {
  if (!req.is('multipart/form-data')) {
    return Promise.reject(new AppError('unsupported_media_type', 'Send the file as multipart/form-data'));
  }
  const { maxBytes, maxFiles } = upload;
  const parser = maxFiles
    ? multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: maxFiles + 1 } }).array('file', maxFiles + 1)
    : multer({ storage: multer.memoryStorage(), limits: { fileSize: maxBytes, files: 1 } }).single('file');
  return new Promise((resolve, reject) => {
    parser(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        if (error.code === 'LIMIT_FILE_SIZE') {
          reject(new AppError('file_too_large', `The file exceeds ${maxBytes} bytes`));
        } else {
          reject(fromValidationIssues([{ path: ['file'], message: error.message }], 'file'));
        }
      } else if (error) {
        reject(fromValidationIssues([{ path: ['file'], message: 'Malformed multipart body' }], 'file'));
      } else {
        const parts = req.file ? [req.file] : ((req.files as Express.Multer.File[] | undefined) ?? []);
        if (parts.length === 0) reject(fromValidationIssues([{ path: ['file'], message: 'A `file` part is required' }], 'file'));
        else resolve(parts.map((part) => ({ buffer: part.buffer, fileName: part.originalname, contentType: part.mimetype })));
      }
    });
  });
}

/** The Express handler of one route: authentication, CSRF, rate limit, idempotency, validation. */
export function routeHandler(route: RouteDefinition, settings: HttpSettings): RequestHandler {
  return async (req, res) => {
    const answer = (reply: Reply) => send(res, reply, settings);
    try {
      let identity: Identity | null = null;
      let ctx: RequestContext | undefined;
      if (route.auth !== 'none') {
        identity = await identify({
          authorization: req.get('authorization'),
          sessionToken: readSessionCookie(req.headers.cookie, settings),
        });
        if (!identity) throw unauthorized();
        if ((route.sessionOnly || route.auth === 'user') && identity.kind !== 'session') {
          throw unauthorized('This route needs a session, not an API token');
        }
        assertNotCrossSite({
          method: req.method,
          identity,
          organizationHeader: req.get('x-organization-id'),
          origin: req.get('origin'),
          host: req.get('host'),
        });
        if (route.auth === 'org') {
          const fromPath = route.orgParam ? req.params[route.orgParam] : undefined;
          const fromHeader = req.get('x-organization-id');
          if (fromPath !== undefined && fromHeader !== undefined && fromHeader !== fromPath) {
            throw new AppError('not_found', 'Organization not found');
          }
          ctx = await enterOrganization(identity, (fromPath as string | undefined) ?? fromHeader, localeOf(req.get('accept-language')));
          res.locals.orgId = ctx.org.id;
          if (ctx.metered) {
            const state = await consumeRequest(ctx);
            for (const [name, value] of Object.entries(rateLimitHeaders(state))) res.setHeader(name, value);
            if (!state.allowed) {
              throw new AppError('too_many_requests', 'The per-minute API request ceiling was reached', {
                headers: { 'Retry-After': String(state.retryAfterSeconds) },
              });
            }
          }
        }
      }

      const files = route.upload ? await receiveUpload(req, res, route.upload) : [];
      const key = UNSAFE.has(route.method) ? parseIdempotencyKey(req.get('idempotency-key')) : undefined;
      const principal = key !== undefined && identity ? principalOf(identity, ctx) : undefined;
      if (key !== undefined && principal !== undefined) {
        const claim = await claimIdempotencyKey(principal, key, fingerprint(req, files));
        if (claim.kind === 'replay') {
          const { status, headers, body } = claim.response;
          res.status(status).set(headers).set('Idempotency-Replayed', 'true');
          if (body === null) res.end();
          else res.type('application/json').send(body);
          return;
        }
      }

      let reply: Reply;
      try {
        const result = await route.handle({
          params: parse(route.params, req.params, 'params'),
          query: parse(route.query, req.query, 'query'),
          body: parse(route.body, req.body ?? {}, 'body'),
          file: files[0]?.buffer,
          files,
          identity: identity as Identity,
          ctx: ctx as RequestContext,
        });
        reply = result instanceof Reply ? result : new Reply(route.success.status, result);
      } catch (error) {
        reply = errorReply(error);
      }

      if (key !== undefined && principal !== undefined) {
        if (reply.status >= 500) await releaseIdempotencyKey(principal, key);
        else {
          await completeIdempotencyKey(principal, key, {
            status: reply.status,
            headers: reply.headers,
            body: reply.body === undefined || reply.status === 204 ? null : JSON.stringify(reply.body),
          });
        }
      }
      answer(reply);
    } catch (error) {
      answer(errorReply(error));
    }
  };
}
