import { settings } from '../../kernel/config.ts';
import { AppError } from '../../kernel/errors.ts';
import { logger } from '../../kernel/logger.ts';

/**
 * The bot check of signup (contract §18): with TCMS_CHALLENGE_VERIFY_URL set, the client's
 * `challengeToken` is sent to a verifier speaking the siteverify protocol (a form POST of
 * `secret`, `response` and `remoteip`; it answers JSON `{ success }`). Without it there is none.
 */

const challengeFailed = (message: string, reason: string) => new AppError('challenge_failed', message, { code: reason });

/**
 * Refuses the signup with 403 challenge_failed unless the verifier accepts the token. A verifier
 * that cannot be asked (unreachable, too slow, answering anything but JSON from a 2xx) fails
 * closed: an outage must not open signup to bots, and it is logged for the operator.
 */
export async function assertChallengePassed(challengeToken: string | undefined, client: { ip: string }): Promise<void> {
  const challenge = settings().challenge;
  if (!challenge) return;
  if (!challengeToken) throw challengeFailed('Signup needs a challengeToken from the bot check', 'challenge_missing');
  const form = new URLSearchParams({ secret: challenge.secret, response: challengeToken, remoteip: client.ip });
  let success: unknown;
  try {
    const response = await fetch(challenge.verifyUrl, {
      method: 'POST',
      body: form,
      signal: AbortSignal.timeout(challenge.timeoutMs),
      redirect: 'error',
    });
    if (!response.ok) throw new Error(`the verifier answered ${response.status}`);
    ({ success } = (await response.json()) as { success?: unknown });
  } catch (error) {
    logger.error({ err: error }, 'the signup challenge verifier could not be asked');
    throw challengeFailed('The bot check could not be verified; try again later', 'verifier_unavailable');
  }
  if (success !== true) throw challengeFailed('The bot check failed; try again', 'challenge_rejected');
}
