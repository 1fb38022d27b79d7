import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { setOrganizationSuspension } from '../../src/orgs/orgs.service.ts';
import { signUp, uniqueEmail, useTestApp } from '../support/app.ts';

/** The pages' frame over HTTP: the CSRF rule, `next`, the headers every page sends. */
const t = useTestApp();

/** A browser-like visitor: a cookie jar, and the CSRF token of the last form it was shown. */
async function visitor(path: string) {
  const agent = request.agent(t.app.express);
  const shown = await agent.get(path);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(shown.text)?.[1];
  return { agent, shown, csrf: csrf! };
}

describe('pages for people', () => {
  it('send a nonce CSP without script, deny framing and keep the origin only for themselves', async () => {
    const { shown } = await visitor('/signin');
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('text/html');
    const csp = shown.headers['content-security-policy'];
    expect(csp).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; img-src 'self'; form-action 'self'; /);
    expect(csp).not.toContain('script-src');
    expect(shown.headers['referrer-policy']).toBe('same-origin');
    expect(shown.headers['x-frame-options']).toBe('DENY');
    expect(shown.text).not.toMatch(/<script/i);
    expect(shown.headers['set-cookie']?.[0]).toMatch(/^tcms_csrf=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
  });

  it('refuse a form without the CSRF token of its cookie, and show the form again', async () => {
    const user = await signUp(t.http, { password: 'a good password' });
    const { agent, csrf } = await visitor('/signin');
    const forged = await agent
      .post('/signin')
      .type('form')
      .send({ email: user.email, password: 'a good password', _csrf: `${csrf.slice(0, -1)}x` });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('This form expired');
    expect(forged.headers['set-cookie']).toBeUndefined();
    const fromElsewhere = await request(t.app.express)
      .post('/signin')
      .type('form')
      .send({ email: user.email, password: 'a good password', _csrf: csrf });
    expect(fromElsewhere.status).toBe(403);
  });

  it.each([
    ['/account', '/account'],
    ['//evil.example/path', '/'],
    ['/\\evil.example', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['/a\tb', '/'],
  ])('signs in and follows next=%s only to a path of this service (%s)', async (next, expected) => {
    const user = await signUp(t.http, { password: 'a good password' });
    const { agent, csrf } = await visitor(`/signin?next=${encodeURIComponent(next)}`);
    const signedIn = await agent.post('/signin').type('form').send({ email: user.email, password: 'a good password', next, _csrf: csrf });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe(expected);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/tcms_session=/);
  });

  it('answers a wrong password with the form, its sentence and 401, and no session', async () => {
    const user = await signUp(t.http, { password: 'a good password' });
    const { agent, csrf } = await visitor('/signin');
    const refused = await agent.post('/signin').type('form').send({ email: user.email, password: 'not the password', _csrf: csrf });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('The email address or the password is not right.');
    expect(refused.text).toContain(`value="${user.email}"`);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });

  it('signs up with the API rules, showing each field error linked to its field', async () => {
    const { agent, csrf } = await visitor('/signup');
    const invalid = await agent
      .post('/signup')
      .type('form')
      .send({ email: 'not an address', password: 'short', firstName: 'Ada', lastName: 'L', _csrf: csrf });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('href="#field-email"');
    expect(invalid.text).toContain('href="#field-password"');
    expect(invalid.text).toMatch(
      /id="field-password"[^>]*aria-invalid="true"[^>]*aria-describedby="field-password-hint field-password-error"/,
    );
    const created = await agent.post('/signup').type('form').send({
      email: uniqueEmail(),
      password: 'a good password',
      firstName: 'Ada',
      lastName: 'L',
      organizationName: 'Engines',
      _csrf: csrf,
    });
    expect(created.status).toBe(303);
    const home = await agent.get('/');
    expect(home.text).toContain('Engines');
  });

  it('speaks Spanish to a browser that asks for it', async () => {
    const shown = await request(t.app.express).get('/signin').set('Accept-Language', 'es-ES,es;q=0.9,en;q=0.5');
    expect(shown.text).toContain('<html lang="es">');
    expect(shown.text).toContain('¿Olvidaste tu contraseña?');
    const { agent, csrf } = await visitor('/signup');
    const invalid = await agent
      .post('/signup')
      .set('Accept-Language', 'es')
      .type('form')
      .send({ email: uniqueEmail(), password: 'short', firstName: 'Ada', lastName: 'L', _csrf: csrf });
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('Hay un problema');
    expect(invalid.text).toContain('password: Demasiado pequeño');
  });

  it('signs out with a posted form only', async () => {
    const user = await signUp(t.http, { password: 'a good password' });
    const { agent, csrf } = await visitor('/signin');
    await agent.post('/signin').type('form').send({ email: user.email, password: 'a good password', _csrf: csrf });
    const asked = await agent.get('/signout');
    expect(asked.text).toContain('Sign out of tcms in this browser?');
    expect((await agent.get('/api/v1/auth/session')).status).toBe(200);
    const crossSite = await agent
      .post('/signout')
      .type('form')
      .set({ Host: 'tcms.test', Origin: 'http://evil.example' })
      .send({ _csrf: csrf });
    expect(crossSite.status).toBe(403);
    expect((await agent.get('/api/v1/auth/session')).status).toBe(200);
    const signedOut = await agent
      .post('/signout')
      .type('form')
      .set({ Host: 'tcms.test', Origin: 'http://tcms.test' })
      .send({ _csrf: csrf });
    expect(signedOut.status).toBe(303);
    expect((await agent.get('/api/v1/auth/session')).status).toBe(401);
  });
});

describe('the home page', () => {
  it("lists each organization's projects, and says so of a suspended one instead of failing", async () => {
    const user = await signUp(t.http, { password: 'a good password', organizationName: 'Open Org' });
    await t.http.post('/api/v1/projects').set(user.headers).send({ id: 'HOME', name: 'Home project' }).expect(201);
    const second = await t.http
      .post('/api/v1/orgs')
      .set({ Cookie: user.headers.Cookie!, Host: 'tcms.test', Origin: 'http://tcms.test' })
      .send({ name: 'Closed Org' })
      .expect(201);
    await setOrganizationSuspension(second.body.ulid, { suspended: true, reason: 'test' });
    const home = await request(t.app.express).get('/').set('Cookie', user.headers.Cookie!);
    expect(home.status).toBe(200);
    expect(home.text).toContain('HOME: Home project');
    expect(home.text).toContain('Closed Org');
    expect(home.text).toContain('You cannot work in this organization at the moment');
  });
});
