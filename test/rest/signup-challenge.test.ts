import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigurationError, loadConfig } from '../../src/kernel/config.ts';
import { prisma } from '../../src/kernel/database/client.ts';
import { expectError, uniqueEmail, useTestApp } from '../support/app.ts';

const SECRET = 'challenge-secret-of-this-service';

/**
 * A siteverify-compatible verifier: `pass-…` tokens succeed, `deny` fails, `broken` answers 500,
 * `slow` is never answered (the service's timeout must end the wait).
 */
const asked: URLSearchParams[] = [];
const verifier = http.createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    const form = new URLSearchParams(body);
    asked.push(form);
    const token = form.get('response') ?? '';
    if (token === 'slow') return;
    if (token === 'broken') return void response.writeHead(500).end('oops');
    const success = form.get('secret') === SECRET && token.startsWith('pass-');
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ success, 'error-codes': [] }));
  });
});
verifier.listen(0, '127.0.0.1');
await once(verifier, 'listening');
afterAll(async () => {
  verifier.closeAllConnections();
  verifier.close();
});

const t = useTestApp({
  TCMS_CHALLENGE_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/siteverify`,
  TCMS_CHALLENGE_SECRET: SECRET,
  // Long enough for a verifier on a loaded CI machine; only the never-answering one waits it out.
  TCMS_CHALLENGE_TIMEOUT_MS: '2000',
});

const signupBody = (fields: Record<string, unknown> = {}) => ({
  email: uniqueEmail('challenged'),
  password: 'correct horse battery',
  firstName: 'Chal',
  lastName: 'Lenged',
  ...fields,
});

const userExists = async (email: string) => (await prisma().user.count({ where: { email } })) === 1;

describe('signup with the bot check configured', () => {
  it('signs up when the verifier accepts the token, which it receives with the secret as a form', async () => {
    const body = signupBody({ challengeToken: 'pass-1234' });
    const response = await t.http.post('/api/v1/auth/signup').send(body);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.user.email).toBe(body.email);
    const form = asked.at(-1)!;
    expect(form.get('secret')).toBe(SECRET);
    expect(form.get('response')).toBe('pass-1234');
    expect(form.get('remoteip')).toBeTruthy();
  });

  it('refuses with 403 challenge_failed and creates nothing when the token is missing, rejected, or cannot be verified', async () => {
    for (const [challengeToken, reason] of [
      [undefined, 'challenge_missing'],
      ['deny', 'challenge_rejected'],
      ['broken', 'verifier_unavailable'],
      ['slow', 'verifier_unavailable'],
    ] as const) {
      const body = signupBody(challengeToken === undefined ? {} : { challengeToken });
      const askedBefore = asked.length;
      const response = await t.http.post('/api/v1/auth/signup').send(body);
      expectError(response, 403, 'challenge_failed');
      expect(response.body.error.details).toMatchObject({ code: reason });
      expect(asked.length).toBe(challengeToken === undefined ? askedBefore : askedBefore + 1);
      expect(await userExists(body.email)).toBe(false);
    }
  });

  it('needs the challenge to repair an existing account too, and refuses an empty token as invalid input', async () => {
    const body = signupBody({ challengeToken: 'pass-first' });
    expect((await t.http.post('/api/v1/auth/signup').send(body)).status).toBe(201);
    expectError(await t.http.post('/api/v1/auth/signup').send({ ...body, challengeToken: 'deny' }), 403, 'challenge_failed');
    expect((await t.http.post('/api/v1/auth/signup').send({ ...body, challengeToken: 'pass-again' })).status).toBe(200);
    expectError(await t.http.post('/api/v1/auth/signup').send(signupBody({ challengeToken: '' })), 422, 'validation_failed');
  });
});

describe('bot check settings', () => {
  it('has no challenge by default, and a 5 s timeout once configured', () => {
    expect(loadConfig({}).challenge).toBeUndefined();
    expect(loadConfig({ TCMS_CHALLENGE_VERIFY_URL: 'https://verify.example/siteverify', TCMS_CHALLENGE_SECRET: 's' }).challenge).toEqual({
      verifyUrl: 'https://verify.example/siteverify',
      secret: 's',
      timeoutMs: 5_000,
    });
  });

  it.each([
    [
      'a verifier without a secret',
      { TCMS_CHALLENGE_VERIFY_URL: 'https://verify.example/siteverify' },
      /TCMS_CHALLENGE_SECRET is required/,
    ],
    [
      'a verifier address of another scheme',
      { TCMS_CHALLENGE_VERIFY_URL: 'ftp://verify.example', TCMS_CHALLENGE_SECRET: 's' },
      /TCMS_CHALLENGE_VERIFY_URL/,
    ],
  ])('refuses %s', (_label, env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigurationError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
