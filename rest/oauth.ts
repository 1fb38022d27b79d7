import {
  AccessDeniedError,
  InvalidRequestError,
  InvalidTargetError,
  TooManyRequestsError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { authorizationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/authorize.js';
import { metadataHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/metadata.js';
import { clientRegistrationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/register.js';
import { revocationHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/revoke.js';
import { tokenHandler } from '@modelcontextprotocol/sdk/server/auth/handlers/token.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { clientName } from '../src/foundation/auth/authenticate.ts';
import { consumeAddressCall } from '../src/foundation/rate-limit/rate-limit.service.ts';
import { AppError } from '../src/kernel/errors.ts';
import { logger } from '../src/kernel/logger.ts';
import {
  challengeFor,
  consentChoices,
  exchangeCode,
  grantAuthorization,
  refreshTokens,
  revokeToken,
  verifyAccessToken,
} from '../src/oauth/oauth.service.ts';
import { clientsStore, isRegisteredRedirectUri } from '../src/oauth/oauth-clients.service.ts';
import { errorReply } from './errors.ts';
import { type HttpSettings, readSessionCookie } from './http-settings.ts';
import { consentPage, errorPage, PAGE_HEADERS, signInPage } from './oauth-pages.ts';

/** Client registrations one address may make per hour (counted in the database: processes are stateless). */
export const REGISTRATIONS_PER_HOUR = 20;

/** The path of the MCP endpoint: the protected resource the tokens are for. */
const RESOURCE_PATH = '/mcp';

/** The endpoints the router serves (the metrics name requests by them). */
export const OAUTH_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/authorize',
  '/token',
  '/register',
  '/revoke',
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

type OAuthSettings = { publicUrl: string; http: HttpSettings };

/** The same-origin rule of the consent POST: its Origin (else its Referer) is TCMS_PUBLIC_URL's origin. */
function fromPublicOrigin(req: Request, publicOrigin: string): boolean {
  const source = req.get('origin') ?? req.get('referer');
  if (!source) return false;
  try {
    return new URL(source).origin === publicOrigin;
  } catch {
    return false;
  }
}

const sendPage = (res: Response, status: number, html: string) => {
  res.status(status).set(PAGE_HEADERS).type('html').send(html);
};

/**
 * Our OAuthServerProvider: the SDK's handlers validate the requests (client, redirect URI, PKCE
 * parameters, the code verifier) and call these with what they checked.
 */
class TcmsOAuthProvider implements OAuthServerProvider {
  readonly clientsStore = clientsStore;
  readonly #settings: OAuthSettings;
  readonly #resource: string;
  readonly #publicOrigin: string;

  constructor(settings: OAuthSettings) {
    this.#settings = settings;
    this.#resource = new URL(RESOURCE_PATH, `${settings.publicUrl}/`).href;
    this.#publicOrigin = new URL(settings.publicUrl).origin;
  }

  /**
   * GET shows the consent page (or asks to sign in); the consent form's POST, same-origin only,
   * approves (302 to redirect_uri with code and state) or denies (access_denied).
   */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const req = res.req;
    if (params.resource && params.resource.href !== this.#resource) {
      throw new InvalidTargetError(`The only resource is ${this.#resource}`);
    }
    const name = clientName({ id: client.client_id, metadata: client });
    const sessionToken = readSessionCookie(req.headers.cookie, this.#settings.http);
    if (req.method === 'GET') {
      const choices = await consentChoices(sessionToken);
      if (!choices) return sendPage(res, 200, signInPage(name));
      const query = req.query as Record<string, string | undefined>;
      const request = Object.fromEntries(
        ['client_id', 'redirect_uri', 'response_type', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'].map(
          (key) => [key, typeof query[key] === 'string' ? query[key] : undefined],
        ),
      );
      return sendPage(res, 200, consentPage(name, choices, request));
    }
    if (!fromPublicOrigin(req, this.#publicOrigin)) {
      return sendPage(res, 403, errorPage('The consent form must be sent from the tcms page itself (Origin or Referer of the service).'));
    }
    const body = req.body as Record<string, unknown>;
    if (body.approve !== 'true') throw new AccessDeniedError('The user denied the authorization');
    let code: string;
    try {
      code = await grantAuthorization(sessionToken, {
        client,
        organizationUlid: typeof body.organizationUlid === 'string' ? body.organizationUlid : '',
        redirectUri: params.redirectUri,
        codeChallenge: params.codeChallenge,
        resource: params.resource?.href,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const reply = errorReply(error);
      return sendPage(res, reply.status, errorPage(reply.body.error.message));
    }
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  challengeForAuthorizationCode(client: OAuthClientInformationFull, code: string) {
    return challengeFor(client.client_id, code);
  }

  exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string, _verifier?: string, redirectUri?: string, resource?: URL) {
    return exchangeCode(client.client_id, code, redirectUri, resource);
  }

  exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string) {
    return refreshTokens(client.client_id, refreshToken);
  }

  verifyAccessToken(token: string) {
    return verifyAccessToken(token);
  }

  revokeToken(client: OAuthClientInformationFull, request: { token: string }) {
    return revokeToken(client.client_id, request.token);
  }
}

/** Registrations per address and hour, in the database's fixed windows. */
const registrationLimit: RequestHandler = async (req, res, next) => {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const state = await consumeAddressCall(address, 'oauth_registration', REGISTRATIONS_PER_HOUR);
  if (state.allowed) return next();
  res
    .status(429)
    .set('Retry-After', String(state.retryAfterSeconds))
    .json(new TooManyRequestsError('Too many client registrations from this address; try again later').toResponseObject());
};

/**
 * Ahead of the SDK's /authorize handler, whose comparison of redirect URIs parses them (so that a
 * loopback URI with a fragment or user information passes): a redirect_uri that is not exactly a
 * registered one (`isRegisteredRedirectUri`) gets the SDK's own direct 400, never a redirect.
 */
const exactRedirectUri: RequestHandler = async (req, res, next) => {
  // A POST that is not a form has no parsed body: the SDK's handler answers it.
  const { client_id: clientId, redirect_uri: redirectUri } = ((req.method === 'POST' ? req.body : req.query) ?? {}) as Record<
    string,
    unknown
  >;
  if (typeof clientId !== 'string' || typeof redirectUri !== 'string') return next();
  const client = await clientsStore.getClient(clientId);
  if (!client || isRegisteredRedirectUri(client, redirectUri)) return next();
  res.status(400).set('Cache-Control', 'no-store').json(new InvalidRequestError('Unregistered redirect_uri').toResponseObject());
};

/** The most characters of an OAuth error's `error_description`. */
const ERROR_DESCRIPTION_MAX = 500;

/**
 * The SDK's `error_description` of a registration that does not validate lists every issue of
 * it (5,000 bad redirect URIs answered 1 MB): clipped, as our own 422s are.
 */
const clippedErrorDescriptions: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const description = (body as { error_description?: unknown } | null)?.error_description;
    if (typeof description !== 'string' || description.length <= ERROR_DESCRIPTION_MAX) return json(body);
    return json({ ...(body as object), error_description: `${description.slice(0, ERROR_DESCRIPTION_MAX)}…` });
  };
  next();
};

/** The issuer must be https, or http on a loopback host (the SDK refuses anything else). */
const acceptableIssuer = (url: URL) => url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);

/**
 * The OAuth 2.1 authorization server of contract §16, from the SDK's handlers (what its
 * mcpAuthRouter mounts, with our metadata): metadata at /.well-known/oauth-authorization-server
 * and /.well-known/oauth-protected-resource(/mcp),
 * /register, /authorize, /token and /revoke. The SDK's in-memory rate limiters are off (processes
 * are stateless): registration is limited per address in the database instead. Null when
 * TCMS_PUBLIC_URL is plain http on a non-loopback host, which OAuth 2.1 does not allow.
 */
export function oauthRouter(settings: OAuthSettings): Router | null {
  const issuerUrl = new URL(settings.publicUrl);
  if (!acceptableIssuer(issuerUrl)) {
    logger.warn({ publicUrl: settings.publicUrl }, 'OAuth for agents is off: TCMS_PUBLIC_URL must be https (or a loopback address)');
    return null;
  }
  const provider = new TcmsOAuthProvider(settings);
  const metadata = {
    ...createOAuthMetadata({ provider, issuerUrl }),
    // TCMS_PUBLIC_URL as configured (the SDK would add a trailing slash).
    issuer: settings.publicUrl,
    // Every client is public (src/oauth/oauth-clients.service.ts).
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
  };
  const protectedResource = {
    resource: new URL(RESOURCE_PATH, `${settings.publicUrl}/`).href,
    authorization_servers: [metadata.issuer],
    resource_name: 'tcms',
  };
  const router = express.Router();
  router.use(clippedErrorDescriptions);
  router.use('/.well-known/oauth-authorization-server', metadataHandler(metadata));
  // At the root path (contract §16) and at the resource's own path (RFC 9728 §3.1, where MCP clients look first).
  router.use('/.well-known/oauth-protected-resource', metadataHandler(protectedResource));
  router.use(`/.well-known/oauth-protected-resource${RESOURCE_PATH}`, metadataHandler(protectedResource));
  router.use('/authorize', express.urlencoded({ extended: false }), exactRedirectUri, authorizationHandler({ provider, rateLimit: false }));
  router.use('/token', tokenHandler({ provider, rateLimit: false }));
  router.post('/register', registrationLimit);
  router.use('/register', clientRegistrationHandler({ clientsStore, rateLimit: false, clientIdGeneration: false }));
  router.use('/revoke', revocationHandler({ provider, rateLimit: false }));
  return router;
}
