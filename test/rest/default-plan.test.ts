import { describe, expect, it } from 'vitest';
import { PLAN_TIERS } from '../../src/kernel/billing-tiers.ts';
import { applySettings, ConfigurationError, loadConfig, settings } from '../../src/kernel/config.ts';
import { createProject, signUp, useTestApp } from '../support/app.ts';

/**
 * TCMS_DEFAULT_PLAN: the plan of every organization created from then on. Without it the plan is
 * free, whose ceilings test/rest/projects.test.ts holds (the 4th project answers 409).
 */

const t = useTestApp({ TCMS_DEFAULT_PLAN: 'team' });

describe('TCMS_DEFAULT_PLAN=team', () => {
  it('signs a new organization up on the team plan, with its ceilings: a 4th project is created', async () => {
    const owner = await signUp(t.http);
    const organization = await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers);
    expect(organization.body.plan).toBe('team');
    const subscription = await t.http.get(`/api/v1/orgs/${owner.orgId}/subscription`).set(owner.headers);
    expect(subscription.body.plan).toBe('team');
    const seats = await t.http.get(`/api/v1/orgs/${owner.orgId}/seat-usage`).set(owner.headers);
    expect(seats.body).toMatchObject({ used: 1, limit: PLAN_TIERS.team.maxSeats });

    for (const id of ['ONE', 'TWO', 'THREE', 'FOUR']) await createProject(t.http, owner, { id });
  });

  it('puts an organization created later (POST /orgs) on it too', async () => {
    const owner = await signUp(t.http);
    const created = await t.http.post('/api/v1/orgs').set(owner.headers).send({ name: 'Second' });
    expect(created.status).toBe(201);
    expect(created.body.plan).toBe('team');
  });

  it('changes the plan of organizations created after a change, never of existing ones', async () => {
    const before = await signUp(t.http);
    const configured = settings();
    applySettings({ ...configured, defaultPlan: 'enterprise' });
    try {
      const after = await signUp(t.http);
      const planOf = async (owner: typeof before) => (await t.http.get(`/api/v1/orgs/${owner.orgId}`).set(owner.headers)).body.plan;
      expect(await planOf(after)).toBe('enterprise');
      expect(await planOf(before)).toBe('team');
    } finally {
      applySettings(configured);
    }
  });

  it('refuses a plan that does not exist, naming the variable and the plans', () => {
    expect(() => loadConfig({ TCMS_DEFAULT_PLAN: 'gold' })).toThrow(ConfigurationError);
    expect(() => loadConfig({ TCMS_DEFAULT_PLAN: 'gold' })).toThrow(
      'TCMS_DEFAULT_PLAN=gold: must be free, team or enterprise, e.g. TCMS_DEFAULT_PLAN=free',
    );
  });
});
