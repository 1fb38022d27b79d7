import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { Identity, RequestContext } from '../src/foundation/context.ts';
import { executeOnce, parseIdempotencyKey, principalOf, type StoredResponse } from '../src/foundation/idempotency/idempotency.service.ts';
import type { RateLimitState } from '../src/foundation/rate-limit/rate-limit.service.ts';
import { openRequest, type RequestOutcome } from '../src/foundation/request.ts';
import type { UploadedFile } from '../src/foundation/storage/storage.service.ts';
import { withImportSlot } from '../src/foundation/uploads/import-slots.ts';
import type { Db } from '../src/kernel/database/client.ts';
import { type Locale, localeOf } from '../src/kernel/i18n.ts';
import { validate } from '../src/kernel/validation.ts';
import { errorReply } from './errors.ts';
import type { HttpSettings } from './http-settings.ts';
import { readSessionCookie, sessionCookieHeaders } from './http-settings.ts';
import { receiveUpload, type UploadOptions } from './uploads.ts';

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
  /** Every uploaded `file` part of an `upload` route, in order (or its raw body, with `rawTypes`). */
  files: UploadedFile[];
  identity: Identity;
  /** Present on `org` routes. */
  ctx: RequestContext;
  /** The transaction a request with an Idempotency-Key runs in (on `org` routes it is also `ctx.db`). */
  db: Db | undefined;
  /** The client's address (behind a proxy, as TCMS_TRUST_PROXY lets Express read it). */
  ip: string;
  /** The language of what is written for people, from Accept-Language (`ctx.locale` on `org` routes). */
  locale: Locale;
};

/**
 * What a handler may answer besides a plain JSON body. A `Readable` body is streamed: the route
 * waits for its first chunk, so a failure before any byte is still the JSON error envelope.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly session?: { token: string | null },
  ) {}
}

/** A stored file as a download: its content type, its name (RFC 5987), never sniffed. */
export const fileReply = (file: { data: Buffer; contentType: string; fileName: string }) =>
  new Reply(200, file.data, {
    'Content-Type': file.contentType,
    'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    'X-Content-Type-Options': 'nosniff',
  });

export type RouteDefinition<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
> = {
  method: Method;
  /** OpenAPI-style path below /api/v1, e.g. `/projects/{projectId}`. */
  path: string;
  /** Unique camelCase verb + resource (`listProjects`): the method name of generated clients. */
  operationId: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  /** Session-only routes (contract §1) answer 401 to bearer tokens. */
  sessionOnly?: boolean;
  /** The path parameter naming the organization of an `/orgs/{orgUlid}` route. */
  orgParam?: string;
  /** Answered in a staff-suspended organization too (`openRequest`). */
  openWhileSuspended?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  upload?: UploadOptions;
  /** `media`: the body's schema per media type, for an answer that is not (only) JSON. */
  success: { status: number; description: string; schema?: Schema; media?: Record<string, Schema> };
  /** Answers that are neither the success nor an error envelope (readiness's 503). */
  otherResponses?: Record<number, { description: string; schema: Schema }>;
  /** Documented error statuses beyond 401/422 that every authenticated route may answer. */
  errors?: number[];
  handle(input: RouteInput<P, Q, B>): Promise<unknown>;
};

/** Declares a route; `restRouter` serves it and `buildOpenApiDocument` documents it. */
export const defineRoute = <P extends Schema | undefined, Q extends Schema | undefined, B extends Schema | undefined>(
  route: RouteDefinition<P, Q, B>,
) => route as unknown as RouteDefinition;

const UNSAFE = new Set<Method>(['post', 'put', 'patch', 'delete']);

const parse = (schema: Schema | undefined, value: unknown, location: 'query' | 'params' | 'body') =>
  schema ? validate(schema, value, location) : undefined;

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  ) ?? 'null';

/**
 * The identity of a request for Idempotency-Key: its request line (`POST /api/v1/...`, method and
 * path as the client sent them), its body and its files (by their digests).
 */
export function fingerprint(requestLine: string, body: unknown, files: UploadedFile[]): string {
  const hash = createHash('sha256').update(`${requestLine}\n`).update(canonicalJson(body));
  for (const file of files) hash.update('\n').update(file.sha256);
  return hash.digest('hex');
}

/** Where app/app.ts mounts `restRouter`. */
const API_PREFIX = '/api/v1';

/**
 * The request line of an HTTP request to `route` with these path parameters and no query, as
 * `fingerprint` reads it. An MCP tool's arguments may hold lone surrogates, which a URL cannot:
 * they read as U+FFFD (and fail the route's validation).
 */
export const requestLineOf = (route: RouteDefinition, params: Record<string, unknown>) =>
  `${route.method.toUpperCase()} ${API_PREFIX}${route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name]).replace(/\p{Surrogate}/gu, '\uFFFD')))}`;

function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAt / 1000)),
  };
}

const toStored = (reply: Reply): StoredResponse => ({
  status: reply.status,
  headers: reply.headers,
  body: reply.body === undefined || reply.status === 204 ? null : JSON.stringify(reply.body),
});

function send(res: Response, reply: Reply, settings: HttpSettings): void {
  res.status(reply.status).set(reply.headers);
  if (reply.session) res.append('Set-Cookie', sessionCookieHeaders(settings, reply.session.token));
  if (reply.body === undefined || reply.status === 204) res.end();
  else if (Buffer.isBuffer(reply.body)) res.send(reply.body);
  else if (reply.body instanceof Readable) {
    // A client that goes away destroys the source; a failure after the first byte can only cut the answer short.
    pipeline(reply.body, res).catch((error: NodeJS.ErrnoException) => {
      // A client that goes away (an event stream closed, a download abandoned) is no fault of the service.
      if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') res.req.log.debug('the client went away before a streamed answer ended');
      else res.req.log.warn({ err: error }, 'a streamed answer ended early');
    });
  } else res.json(reply.body);
}

/** The header of a replayed answer (over MCP, of the reply a replayed tool call is made of). */
export const REPLAYED_HEADER = 'Idempotency-Replayed';

function sendStored(res: Response, stored: StoredResponse): void {
  res.status(stored.status).set(stored.headers).set(REPLAYED_HEADER, 'true');
  if (stored.body === null) res.end();
  else res.type('application/json').send(stored.body);
}

const toReply = (thrown: unknown, req: Request) => {
  const { status, body, headers } = errorReply(thrown, req.log);
  return new Reply(status, body, headers);
};

/** The request's credentials, as the core's pipeline reads them. */
const credentialsOf = (req: Request, settings: HttpSettings) => ({
  method: req.method,
  authorization: req.get('authorization'),
  sessionToken: readSessionCookie(req.headers.cookie, settings),
  organizationHeader: req.get('x-organization-id'),
  origin: req.get('origin'),
  host: req.get('host'),
  acceptLanguage: req.get('accept-language'),
});

/**
 * The Express handler of one route: the core's request pipeline, the upload, then the handler,
 * exactly once per Idempotency-Key when the request carries one.
 */
export function routeHandler(route: RouteDefinition, settings: HttpSettings): RequestHandler {
  return async (req, res) => {
    res.locals.route = `${req.baseUrl}${route.path}`;
    let reply: Reply;
    try {
      const outcome = await openRequest(
        {
          caller: route.auth,
          sessionOnly: route.sessionOnly,
          openWhileSuspended: route.openWhileSuspended,
          orgFromPath: route.orgParam ? (req.params[route.orgParam] as string) : undefined,
        },
        credentialsOf(req, settings),
      );
      if (outcome.rateLimit) res.set(rateLimitHeaders(outcome.rateLimit));
      if (outcome.kind === 'refused') return send(res, toReply(outcome.error, req), settings);
      if (outcome.ctx) res.locals.orgId = outcome.ctx.org.id;

      const files = route.upload ? await receiveUpload(req, res, route.upload) : [];
      const key = UNSAFE.has(route.method) ? parseIdempotencyKey(req.get('idempotency-key')) : undefined;
      const answer = async (): Promise<Reply | StoredResponse> => {
        if (key === undefined || !outcome.identity) {
          return execute(route, rawInputOf(req), outcome, files, undefined).catch((error: unknown) => toReply(error, req));
        }
        const requestHash = fingerprint(`${req.method} ${req.originalUrl}`, req.body ?? null, files);
        return executeByKey(route, rawInputOf(req), outcome, files, { key, requestHash }, req);
      };
      const answered = route.upload?.import && outcome.ctx ? await withImportSlot(outcome.ctx.org.id, answer) : await answer();
      if (!(answered instanceof Reply)) return sendStored(res, answered);
      reply = answered;
    } catch (error) {
      reply = toReply(error, req);
    }
    send(res, reply, settings);
  };
}

/**
 * Runs a route at most once per Idempotency-Key of the caller (`executeOnce`): its reply (an
 * AppError rendered, and kept like any answer), or the stored answer of the earlier request with
 * that key. `outcome` has an identity; `req` logs an unexpected error. REST requests with the
 * header and MCP tool calls with an `idempotencyKey` both run here, so their keys are one set.
 */
export async function executeByKey(
  route: RouteDefinition,
  raw: RawRouteInput,
  outcome: Extract<RequestOutcome, { kind: 'open' }>,
  files: UploadedFile[],
  keyed: { key: string; requestHash: string },
  req: Request,
): Promise<Reply | StoredResponse> {
  let executed: Reply | undefined;
  const { response, replayed } = await executeOnce(
    { principal: principalOf(outcome.identity as Identity, outcome.ctx), ...keyed },
    outcome.ctx?.db,
    async (tx) => {
      executed = await execute(route, raw, outcome, files, tx);
      return toStored(executed);
    },
    (error) => {
      executed = toReply(error, req);
      return toStored(executed);
    },
  );
  return replayed || !executed ? response : executed;
}

/** What a route reads off its request besides the credentials, as the client sent it (before validation). */
export type RawRouteInput = { params: unknown; query: unknown; body: unknown; ip: string; acceptLanguage?: string | undefined };

const rawInputOf = (req: Request): RawRouteInput => ({
  params: req.params,
  query: req.query,
  body: req.body ?? {},
  ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
  acceptLanguage: req.get('accept-language'),
});

/**
 * Validates a request's input and runs the route's handler; `tx` is the transaction of a keyed
 * request. The MCP tools (rest/mcp/) dispatch their sub-requests through it too.
 */
export async function execute(
  route: RouteDefinition,
  raw: RawRouteInput,
  outcome: Extract<RequestOutcome, { kind: 'open' }>,
  files: UploadedFile[],
  tx: Db | undefined,
): Promise<Reply> {
  const ctx = outcome.ctx && tx ? { ...outcome.ctx, db: tx } : outcome.ctx;
  const result = await route.handle({
    params: parse(route.params, raw.params, 'params'),
    query: parse(route.query, raw.query, 'query'),
    body: parse(route.body, raw.body, 'body'),
    files,
    identity: outcome.identity as Identity,
    ctx: ctx as RequestContext,
    db: tx,
    ip: raw.ip,
    locale: outcome.ctx?.locale ?? localeOf(raw.acceptLanguage),
  });
  if (result instanceof Reply && result.body instanceof Readable) await once(result.body, 'readable');
  return result instanceof Reply ? result : new Reply(route.success.status, result);
}
