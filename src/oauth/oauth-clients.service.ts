import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { CustomOAuthError, InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationFull } from '@modelcontextprotocol/sdk/shared/auth.js';
import { prisma } from '../kernel/database/client.ts';
import { newId, ULID_PATTERN } from '../kernel/ids.ts';
import { unstorableIn } from '../kernel/validation.ts';

/** Abuse ceilings of a registration (the SDK's schema checks the shapes). */
const MAX_REDIRECT_URIS = 10;
const MAX_CLIENT_NAME = 200;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Redirect URIs of OAuth 2.1: https, http only to a loopback host (native apps), or a private
 * scheme of a native app (`com.example.app:/callback`).
 */
function assertRedirectUris(uris: string[]): void {
  if (uris.length > MAX_REDIRECT_URIS) throw new InvalidClientMetadataError(`At most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of uris) {
    const url = new URL(uri);
    if (url.hash) throw new CustomOAuthError('invalid_redirect_uri', `A redirect URI must not have a fragment: ${uri}`);
    if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
      throw new CustomOAuthError('invalid_redirect_uri', `An http redirect URI must point to a loopback host: ${uri}`);
    }
  }
}

/** An http loopback URI: its scheme and host, the port, then the rest (without a fragment). */
const LOOPBACK_URI = /^(http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::\d{1,5})?((?:[/?][^#]*)?)$/;

const withoutLoopbackPort = (uri: string) => {
  const match = LOOPBACK_URI.exec(uri);
  return match ? `${match[1]}${match[2]}` : undefined;
};

/**
 * Whether `requested` is one of the client's registered redirect URIs: the very same string
 * (simple string comparison, RFC 6749 §3.1.2.3, OAuth 2.1), except that an http loopback URI may
 * name another port (RFC 8252 §7.3: a native app listens on whatever port it is given). Nothing is
 * normalized: a fragment, user information, another spelling of the host or the path is another URI.
 */
export function isRegisteredRedirectUri(client: Pick<OAuthClientInformationFull, 'redirect_uris'>, requested: string): boolean {
  const portless = withoutLoopbackPort(requested);
  return client.redirect_uris.some(
    (registered) => registered === requested || (portless !== undefined && withoutLoopbackPort(registered) === portless),
  );
}

/**
 * Dynamically registered clients (RFC 7591) in the database. Every client is public: the secret
 * the SDK generates for a client that asks for one is dropped and `token_endpoint_auth_method` is
 * answered as `none`, so that no client secret is ever stored (PKCE binds each code to the client
 * that started the flow).
 */
export const clientsStore: OAuthRegisteredClientsStore = {
  async getClient(clientId) {
    if (!ULID_PATTERN.test(clientId)) return undefined;
    const row = await prisma().oAuthClient.findUnique({ where: { id: clientId } });
    if (!row) return undefined;
    return {
      ...(row.metadata as object),
      client_id: row.id,
      client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000),
    } as OAuthClientInformationFull;
  },

  async registerClient(client) {
    if ((client.client_name?.length ?? 0) > MAX_CLIENT_NAME)
      throw new InvalidClientMetadataError(`client_name has at most ${MAX_CLIENT_NAME} characters`);
    assertRedirectUris(client.redirect_uris);
    if (unstorableIn(client)) throw new InvalidClientMetadataError('Client metadata must not hold the NUL character or a lone surrogate');
    const { client_secret: _secret, client_secret_expires_at: _expiry, ...metadata } = client;
    const registered = { ...metadata, token_endpoint_auth_method: 'none' };
    const row = await prisma().oAuthClient.create({ data: { id: newId(), metadata: registered } });
    return { ...registered, client_id: row.id, client_id_issued_at: Math.floor(row.createdAt.getTime() / 1000) };
  },
};
