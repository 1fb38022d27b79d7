import { settings } from '../src/kernel/config.ts';
import { logger } from '../src/kernel/logger.ts';

/**
 * The endpoints rest/oauth.ts serves: the metrics name requests by them, and the app imports that
 * router (and the MCP SDK's handlers under it) only when one of them is first asked for.
 */
export const OAUTH_PATHS = [
  '/.well-known/oauth-authorization-server',
  '/.well-known/oauth-protected-resource',
  '/authorize',
  '/token',
  '/register',
  '/revoke',
];

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether this service offers OAuth for agents: its issuer, TCMS_PUBLIC_URL, must be https, or
 * http on a loopback host (OAuth 2.1, and the SDK, refuse anything else); a warning says so when not.
 * Only the port of the default TCMS_PUBLIC_URL is learnt later, never its scheme or host.
 */
export function oauthOffered(): boolean {
  const { publicUrl } = settings();
  const issuer = new URL(publicUrl);
  if (issuer.protocol === 'https:' || LOOPBACK_HOSTS.has(issuer.hostname)) return true;
  logger.warn({ publicUrl }, 'OAuth for agents is off: TCMS_PUBLIC_URL must be https (or a loopback address)');
  return false;
}
