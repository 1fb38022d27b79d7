import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { signUp, tokenFor } from '../support/app.ts';
import { useServerProcess } from '../support/processes.ts';
import { runWithCases } from '../support/runs.ts';
import { startSmtpServer } from '../support/smtp.ts';

/**
 * The server started with PORT=0 and no TCMS_PUBLIC_URL: the system chooses the port after the
 * app was built, and every link the service hands out names that port, not 0.
 */

const smtp = await startSmtpServer();
afterAll(() => smtp.close());
const server = useServerProcess({ TCMS_SMTP_URL: smtp.url, TCMS_PUBLIC_URL: undefined });

const http = () => request(server.current.baseUrl);
const publicUrl = () => `http://localhost:${server.current.port}`;

describe('links of a server on PORT=0 without TCMS_PUBLIC_URL', () => {
  it('name the port listened on in the OAuth metadata', async () => {
    expect(server.current.port).toBeGreaterThan(0);
    const authorizationServer = await http().get('/.well-known/oauth-authorization-server');
    expect(authorizationServer.status).toBe(200);
    expect(authorizationServer.body).toMatchObject({
      issuer: publicUrl(),
      authorization_endpoint: `${publicUrl()}/authorize`,
      token_endpoint: `${publicUrl()}/token`,
      registration_endpoint: `${publicUrl()}/register`,
    });
    const resource = await http().get('/.well-known/oauth-protected-resource/mcp');
    expect(resource.body).toEqual({ resource: `${publicUrl()}/mcp`, authorization_servers: [publicUrl()], resource_name: 'tcms' });
  });

  it("name it in /mcp's WWW-Authenticate", async () => {
    const refused = await http().post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe(`Bearer resource_metadata="${publicUrl()}/.well-known/oauth-protected-resource"`);
  });

  it('name it in a share link', async () => {
    const { owner, run } = await runWithCases(http(), 1);
    const token = await tokenFor(http(), owner);
    const created = await http().post(`/api/v1/runs/${run.ulid}/share-links`).set(token.headers).send({});
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.url).toBe(`${publicUrl()}/share/runs/${created.body.token}`);
  });

  it('name it in the verification mail', async () => {
    const caller = await signUp(http());
    const mail = await smtp.waitForMessage(caller.email, 15_000);
    expect(mail.parsed.text).toContain(`\n${publicUrl()}/verify-email?token=`);
  });
});
