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
import { settings } from '../src/kernel/config.ts';
import { AppError } from '../src/kernel/errors.ts';
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
import type { HttpSettings } from './http-settings.ts';
import { consentPage } from './oauth-pages.ts';
import { type PageAnswer, type PageRequest, signInPath } from './pages/page.ts';
import { carriesCsrfToken, failurePage, pageRequestOf, sendPage, sessionOf, withError } from './pages/pages-router.ts';
import { FRAME } from './pages/texts.ts';

/** Client registrations one address may make per hour (counted in the database: processes are stateless). */
export const REGISTRATIONS_PER_HOUR = 20;

/** The path of the MCP endpoint: the protected resource the tokens are for. */
const RESOURCE_PATH = '/mcp';

/**
 * TCMS_PUBLIC_URL, read at each request: without it, the default names the port only once the
 * server listens (PORT=0 lets the system choose it after the app was built).
 */
const publicUrl = () => settings().publicUrl;
const resourceUrl = () => new URL(RESOURCE_PATH, `${publicUrl()}/`).href;

/**
 * The same-origin rule of the consent POST: its Origin (else its Referer) is the service's, as
 * TCMS_PUBLIC_URL names it or as the browser reached it (its Host: a proxy that keeps the Host,
 * a test on another port).
 */
function fromThisService(req: Request): boolean {
  const source = req.get('origin') ?? req.get('referer');
  if (!source) return false;
  try {
    const { origin, host } = new URL(source);
    return origin === new URL(publicUrl()).origin || host === req.get('host');
  } catch {
    return false;
  }
}

/** The parameters of an authorization request, which the consent form posts back and a signed-out person's `next` names. */
const AUTHORIZATION_PARAMETERS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
];

function authorizationRequestOf(req: Request): Record<string, string> {
  const sent = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown>;
  return Object.fromEntries(AUTHORIZATION_PARAMETERS.flatMap((key) => (typeof sent[key] === 'string' ? [[key, sent[key]]] : [])));
}

/**
 * Where the consent form may lead (its CSP form-action, which Chromium applies to the redirect
 * after the POST too): the redirect URI's origin, or a native app's private scheme.
 */
function redirectTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

/**
 * Our OAuthServerProvider: the SDK's handlers validate the requests (client, redirect URI, PKCE
 * parameters, the code verifier) and call these with what they checked.
 */
class TcmsOAuthProvider implements OAuthServerProvider {
  readonly clientsStore = clientsStore;
  readonly #http: HttpSettings;

  constructor(http: HttpSettings) {
    this.#http = http;
  }

  /**
   * GET shows the consent page, in the pages' frame (a signed-out person signs in first and comes
   * back); the consent form's POST, with the pages' CSRF token and from this service's origin,
   * approves (302 to redirect_uri with code and state) or denies (access_denied). A refused POST
   * shows the consent again.
   */
  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const req = res.req;
    const resource = resourceUrl();
    if (params.resource && params.resource.href !== resource) {
      throw new InvalidTargetError(`The only resource is ${resource}`);
    }
    const page = pageRequestOf(req, res, this.#http);
    try {
      if (req.method === 'POST' && carriesCsrfToken(page) && fromThisService(req)) return await this.#decide(page, client, params, res);
      page.identity = await sessionOf(page.credentials);
      const shown = await this.#consent(page, client);
      const answer = req.method === 'POST' ? withError(shown, FRAME[page.locale].formExpired) : shown;
      sendPage(res, page, answer, [redirectTarget(params.redirectUri)]);
    } catch (error) {
      // OAuth errors are the SDK's to answer (to the redirect URI); ours are pages.
      if (!(error instanceof AppError)) throw error;
      sendPage(res, page, failurePage(page, error));
    }
  }

  async #consent(page: PageRequest, client: OAuthClientInformationFull): Promise<PageAnswer> {
    const request = authorizationRequestOf(page.req);
    const choices = page.identity && (await consentChoices(page.credentials.sessionToken));
    if (!choices) return { redirect: signInPath(`/authorize?${new URLSearchParams(request)}`) };
    return consentPage(page, clientName({ id: client.client_id, metadata: client }), choices, request);
  }

  async #decide(page: PageRequest, client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const body = page.req.body as Record<string, unknown>;
    if (body.approve !== 'true') throw new AccessDeniedError('The user denied the authorization');
    const code = await grantAuthorization(page.credentials.sessionToken, {
      client,
      organizationUlid: typeof body.organizationUlid === 'string' ? body.organizationUlid : '',
      redirectUri: params.redirectUri,
      codeChallenge: params.codeChallenge,
      resource: params.resource?.href,
    });
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

function authorizationServerMetadata(provider: OAuthServerProvider) {
  return {
    ...createOAuthMetadata({ provider, issuerUrl: new URL(publicUrl()) }),
    // TCMS_PUBLIC_URL as configured (the SDK would add a trailing slash).
    issuer: publicUrl(),
    // Every client is public (src/oauth/oauth-clients.service.ts).
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
  };
}

const protectedResourceMetadata = () => ({ resource: resourceUrl(), authorization_servers: [publicUrl()], resource_name: 'tcms' });

/** The SDK's metadata handler (any origin; GET and OPTIONS only) over metadata made at each request. */
const currentMetadata =
  (metadata: () => Parameters<typeof metadataHandler>[0]): RequestHandler =>
  (req, res, next) =>
    metadataHandler(metadata())(req, res, next);

/**
 * The OAuth 2.1 authorization server of contract §16, from the SDK's handlers (what its
 * mcpAuthRouter mounts, with our metadata): metadata at /.well-known/oauth-authorization-server
 * and /.well-known/oauth-protected-resource(/mcp),
 * /register, /authorize, /token and /revoke. The SDK's in-memory rate limiters are off (processes
 * are stateless): registration is limited per address in the database instead. Mounted only
 * where `oauthOffered()` (rest/oauth-paths.ts), on the paths OAUTH_PATHS names.
 */
export function oauthRouter(http: HttpSettings): Router {
  const provider = new TcmsOAuthProvider(http);
  const router = express.Router();
  router.use(clippedErrorDescriptions);
  router.use(
    '/.well-known/oauth-authorization-server',
    currentMetadata(() => authorizationServerMetadata(provider)),
  );
  // At the root path (contract §16) and at the resource's own path (RFC 9728 §3.1, where MCP clients look first).
  router.use('/.well-known/oauth-protected-resource', currentMetadata(protectedResourceMetadata));
  router.use(`/.well-known/oauth-protected-resource${RESOURCE_PATH}`, currentMetadata(protectedResourceMetadata));
  router.use('/authorize', express.urlencoded({ extended: false }), exactRedirectUri, authorizationHandler({ provider, rateLimit: false }));
  router.use('/token', tokenHandler({ provider, rateLimit: false }));
  router.post('/register', registrationLimit);
  router.use('/register', clientRegistrationHandler({ clientsStore, rateLimit: false, clientIdGeneration: false }));
  router.use('/revoke', revocationHandler({ provider, rateLimit: false }));
  return router;
}
