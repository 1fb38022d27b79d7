import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type TestAgent from 'supertest/lib/agent';
import { expect } from 'vitest';
import { newId } from '../../../src/kernel/ids.ts';
import { overrideOrganizationLimits } from '../../../src/orgs/orgs.service.ts';
import { type Caller, createMilestone, createProject, createSuite, joinAs, signUp, tokenFor, uniqueEmail } from '../app.ts';
import { createCase, createPlan, createRun, patchRunCase, resultsOf } from '../runs.ts';
import { PUBLIC_RECEIVER_URL } from './values.ts';

/** TCMS_PUBLIC_URL of the walks' apps: https, so that the OAuth endpoints are served; nothing connects to it. */
export const PUBLIC_URL = 'https://tcms.hostile.test';
/** The settings of a walk's app: its own public URL, and client addresses read from X-Forwarded-For. */
export const WALK_APP_ENV = { TCMS_PUBLIC_URL: PUBLIC_URL, TCMS_TRUST_PROXY: 'true' };

const REDIRECT_URI = 'http://127.0.0.1:33418/callback';

/** A client address of its own (read from X-Forwarded-For): budgets per address are then its own, also on a shared database. */
export const freshAddress = () => `10.${randomBytes(3).join('.')}`;

export type OAuthFixture = {
  clientId: string;
  redirectUri: string;
  /** A PKCE challenge, for the authorization requests of the walk. */
  challenge: string;
  /** The resource the tokens are for (`/mcp`). */
  resource: string;
  accessToken: string;
  refreshToken: string;
};

export type HostileFixture = {
  /** The owner's session, an admin API token, and an OAuth access token of the owner's consent. */
  callers: { session: Caller; token: Caller; oauth: Caller };
  /** The client address of every request of the walk (per-address budgets are its own on a shared database). */
  address: string;
  oauth: OAuthFixture;
  /** Real values of each path parameter (and GraphQL argument) by its REST name. */
  pathValues: Record<string, string[]>;
  /** A fresh API token per use that must not share a burst budget (MCP's tool calls per second and token). */
  freshToken(): Promise<Caller>;
};

const ok = async <T>(pending: Promise<{ status: number; body: T }>, status = 200): Promise<T> => {
  const response = await pending;
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  return response.body;
};

/** Registration, consent and code exchange, as an MCP client goes through them. */
async function authorizeOAuthClient(http: TestAgent, owner: Caller, address: string): Promise<OAuthFixture> {
  const resource = `${PUBLIC_URL}/mcp`;
  const client = await ok<{ client_id: string }>(
    http
      .post('/register')
      .set('X-Forwarded-For', address)
      .send({ client_name: 'Hostile walk', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
    201,
  );
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const authorization = {
    client_id: client.client_id,
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  };
  // The pages' CSRF pair (rest/pages/pages-router.ts): the same token in the cookie and the form.
  const csrf = 'c'.repeat(43);
  const consent = await http
    .post('/authorize')
    .set({ Cookie: `${owner.headers.Cookie}; __Host-tcms_csrf=${csrf}`, Origin: PUBLIC_URL })
    .type('form')
    .send({ ...authorization, approve: 'true', organizationUlid: owner.orgId, _csrf: csrf });
  expect(consent.status, consent.text).toBe(302);
  const code = new URL(consent.headers.location!).searchParams.get('code')!;
  const tokens = await ok<{ access_token: string; refresh_token: string }>(
    http
      .post('/token')
      .type('form')
      .send({ grant_type: 'authorization_code', client_id: client.client_id, code, code_verifier: verifier, redirect_uri: REDIRECT_URI }),
  );
  return {
    clientId: client.client_id,
    redirectUri: REDIRECT_URI,
    challenge,
    resource,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
  };
}

/**
 * An owner (session, token, OAuth) with one of everything, so that path parameters and arguments
 * name real things: a project with a suite, a case with steps, a milestone, an environment, a
 * configuration, a custom field, comments, a plan, a run with a result, a defect linked to it, a
 * share link, a user group, a webhook with a delivery, an invitation, a member, an avatar and an
 * OAuth grant.
 */
export async function createHostileFixture(http: TestAgent): Promise<HostileFixture> {
  const address = freshAddress();
  const owner = await signUp(http);
  await overrideOrganizationLimits(owner.orgId, { requestsPerMinute: 1_000_000 });
  const as = <T>(method: 'get' | 'post' | 'put' | 'patch', path: string, body?: object, status = method === 'post' ? 201 : 200) =>
    ok<T>(http[method](`/api/v1${path}`).set(owner.headers).send(body), status);
  const token = await tokenFor(http, owner, { role: 'admin' });
  const spareToken = await tokenFor(http, owner, { name: 'spare' });
  const member = await joinAs(http, owner, 'member');
  const webhook = await as<{ ulid: string }>('post', `/orgs/${owner.orgId}/webhooks`, { url: PUBLIC_RECEIVER_URL, events: ['*'] });
  const project = await createProject(http, owner);
  const avatar = await sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 200, g: 0, b: 0 } } })
    .png()
    .toBuffer();
  const avatarKey = (
    await ok<{ avatarKey: string }>(
      http.post(`/api/v1/projects/${project.id}/avatar`).set(owner.headers).attach('file', avatar, 'avatar.png'),
    )
  ).avatarKey;
  const suite = await createSuite(http, owner, project.id);
  const testCase = await createCase(http, owner, project.id, { suiteUlid: suite.ulid, steps: [{ action: 'Open' }, { action: 'Check' }] });
  const milestone = await createMilestone(http, owner, project.id);
  const environment = await as<{ ulid: string }>('post', `/projects/${project.id}/environments`, { name: 'Staging' });
  const group = await as<{ ulid: string }>('post', `/projects/${project.id}/configuration-groups`, { name: 'Browser' });
  const configuration = await as<{ ulid: string }>('post', `/configuration-groups/${group.ulid}/values`, { name: 'Chrome' });
  const field = (
    await as<{ field: { ulid: string } }>('post', `/orgs/${owner.orgId}/custom-fields`, {
      entity: 'test_case',
      valueType: 'paragraph',
      title: 'Notes',
    })
  ).field;
  const comment = await as<{ ulid: string }>('post', `/test-cases/${testCase.ulid}/comments`, { body: 'First' });
  const plan = await createPlan(http, owner, project.id);
  const planCases = await as<{ items: Array<{ ulid: string }> }>('put', `/plans/${plan.ulid}/cases`, { caseUlids: [testCase.ulid] });
  const run = await createRun(http, owner, project.id, { caseUlids: [testCase.ulid] });
  const runCase = (await as<{ items: Array<{ ulid: string; steps: Array<{ ulid: string }> }> }>('get', `/runs/${run.ulid}/cases`))
    .items[0]!;
  expect((await patchRunCase(http, owner, run.ulid, runCase.ulid, { status: 'failed' })).status).toBe(200);
  const [result] = await resultsOf(http, owner, run.ulid);
  const defect = await as<{ ulid: string }>('post', `/projects/${project.id}/defects`, {
    title: 'Hostile defect',
    resultUlids: [result!.ulid],
  });
  const defectComment = await as<{ ulid: string }>('post', `/defects/${defect.ulid}/comments`, { body: 'Seen' });
  const shareLink = await as<{ ulid: string; token: string }>('post', `/runs/${run.ulid}/share-links`, {});
  const userGroup = await as<{ ulid: string }>('post', '/groups', {
    name: 'Crew',
    memberUserUlids: [owner.userId],
    projectUlids: [project.ulid],
  });
  const invitation = await as<{ ulid: string }>('post', `/orgs/${owner.orgId}/invitations`, {
    email: uniqueEmail('invited'),
    role: 'member',
  });
  const delivery = (await as<{ items: Array<{ ulid: string }> }>('get', `/orgs/${owner.orgId}/webhooks/${webhook.ulid}/deliveries`))
    .items[0]!;
  const oauth = await authorizeOAuthClient(http, owner, address);
  const grant = (await as<{ items: Array<{ ulid: string }> }>('get', '/me/oauth-grants')).items[0]!;

  const pathValues: Record<string, string[]> = {
    orgUlid: [owner.orgId],
    tokenUlid: [spareToken.tokenUlid],
    grantUlid: [grant.ulid],
    projectId: [project.id],
    projectUlid: [project.ulid],
    suiteUlid: [suite.ulid],
    caseUlid: [testCase.ulid],
    displayId: [`${project.id}-1`, `${project.id}-S1`],
    milestoneUlid: [milestone.ulid],
    environmentUlid: [environment.ulid],
    groupUlid: [group.ulid],
    configurationUlid: [configuration.ulid],
    fieldUlid: [field.ulid],
    commentUlid: [comment.ulid, defectComment.ulid],
    defectUlid: [defect.ulid],
    planUlid: [plan.ulid],
    planCaseUlid: [planCases.items[0]!.ulid],
    runUlid: [run.ulid],
    runCaseUlid: [runCase.ulid],
    stepUlid: runCase.steps.map((step) => step.ulid),
    resultUlid: [result!.ulid],
    // Staging an attachment is a walk's request of its own: the committed ones are unknown ULIDs.
    attachmentUlid: [newId()],
    userGroupUlid: [userGroup.ulid],
    userUlid: [member.userId, owner.userId],
    shareLinkUlid: [shareLink.ulid],
    token: [shareLink.token],
    invitationUlid: [invitation.ulid],
    webhookUlid: [webhook.ulid],
    deliveryUlid: [delivery.ulid],
    key: [avatarKey],
  };
  for (const [name, values] of Object.entries(pathValues)) expect(values.every(Boolean), name).toBe(true);
  return {
    callers: { session: owner, token, oauth: { ...owner, headers: { Authorization: `Bearer ${oauth.accessToken}` } } },
    address,
    oauth,
    pathValues,
    freshToken: () => tokenFor(http, owner, { role: 'admin', name: `walk ${newId()}` }),
  };
}
