import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelayMs } from '../../src/foundation/mail/mail-outbox.service.ts';
import { ConfigurationError, loadConfig } from '../../src/kernel/config.ts';

/** The mail settings of the environment, and the retry schedule they give. */

describe('mail settings', () => {
  it('defaults: the local outbox, a no-reply sender, retries from 30 s, a poll every second', () => {
    expect(loadConfig({})).toMatchObject({
      smtpUrl: undefined,
      mailFrom: 'tcms <no-reply@localhost>',
      retryBaseMs: 30_000,
      mailPollMs: 1_000,
    });
  });

  it('takes smtp:// and smtps:// addresses with a user and password', () => {
    const config = loadConfig({
      TCMS_SMTP_URL: 'smtps://mailer:s%40cret@mail.example.com:465',
      TCMS_MAIL_FROM: 'Acme QA <qa@acme.example>',
      TCMS_RETRY_BASE_MS: '500',
      TCMS_MAIL_POLL_MS: '250',
    });
    expect(config).toMatchObject({
      smtpUrl: 'smtps://mailer:s%40cret@mail.example.com:465',
      mailFrom: 'Acme QA <qa@acme.example>',
      retryBaseMs: 500,
      mailPollMs: 250,
    });
    expect(loadConfig({ TCMS_SMTP_URL: 'smtp://localhost:2525', TCMS_MAIL_FROM: 'qa@acme.example' }).smtpUrl).toBe('smtp://localhost:2525');
  });

  it.each([
    [
      'an SMTP address of another scheme',
      { TCMS_SMTP_URL: 'https://mail.example.com' },
      /^TCMS_SMTP_URL=https:\/\/mail\.example\.com: must be an smtp:\/\/ or smtps:\/\/ address/,
    ],
    ['an SMTP address without a host', { TCMS_SMTP_URL: 'smtp://' }, /TCMS_SMTP_URL/],
    ['a sender without an address', { TCMS_MAIL_FROM: 'tcms' }, /^TCMS_MAIL_FROM=tcms: must be an address/],
    ['a retry base of zero', { TCMS_RETRY_BASE_MS: '0' }, /^TCMS_RETRY_BASE_MS=0: must be a whole number of milliseconds from 1 to/],
    ['a retry base that is not a number', { TCMS_RETRY_BASE_MS: '30s' }, /^TCMS_RETRY_BASE_MS=30s: must be a whole number of milliseconds/],
    [
      'a poll interval that would spin',
      { TCMS_MAIL_POLL_MS: '1' },
      /^TCMS_MAIL_POLL_MS=1: must be a whole number of milliseconds from 10 to/,
    ],
  ])('refuses %s', (_label, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('retry delays start at the base and double with each attempt, within ±20%', () => {
    expect(MAX_ATTEMPTS).toBe(5);
    const base = 30_000;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt += 1) {
      const nominal = base * 2 ** (attempt - 1);
      expect(retryDelayMs(base, attempt, 0)).toBe(0.8 * nominal);
      expect(retryDelayMs(base, attempt, 0.5)).toBe(nominal);
      expect(retryDelayMs(base, attempt, 1)).toBe(1.2 * nominal);
      const drawn = retryDelayMs(base, attempt);
      expect(drawn).toBeGreaterThanOrEqual(0.8 * nominal);
      expect(drawn).toBeLessThanOrEqual(1.2 * nominal);
    }
  });
});
