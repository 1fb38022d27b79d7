import { describe, expect, it } from 'vitest';
import { prisma } from '../../src/kernel/database/client.ts';
import { newId } from '../../src/kernel/ids.ts';
import { type Caller, createMilestone, createProject, graphql, signUp, useTestApp } from '../support/app.ts';
import { dataOf } from '../support/graphql.ts';
import { createCases, createRun } from '../support/runs.ts';
import { recordStatements } from '../support/statements.ts';

const t = useTestApp();

const STATS_QUERY = `{ projects(first: 200) { edges { node { code stats { cases runs runsInProgress defectsUnresolved milestones } } } } }`;

type Stats = { cases: number; runs: number; runsInProgress: number; defectsUnresolved: number; milestones: number };

async function graphqlStats(caller: Caller): Promise<Map<string, Stats>> {
  const data = dataOf(await graphql(t.http, caller, STATS_QUERY));
  return new Map(data.projects.edges.map((edge: { node: { code: string; stats: Stats } }) => [edge.node.code, edge.node.stats]));
}

async function restStats(caller: Caller): Promise<Map<string, Stats>> {
  const response = await t.http.get('/api/v1/projects?include=stats&pageSize=100').set(caller.headers);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return new Map(response.body.items.map((item: { id: string; stats: Stats }) => [item.id, item.stats]));
}

describe('Project.stats', () => {
  it('answers the counts of the REST list with include=stats', async () => {
    const owner = await signUp(t.http);
    const busy = await createProject(t.http, owner);
    const empty = await createProject(t.http, owner);
    const cases = await createCases(t.http, owner, busy.id, 3);
    expect((await t.http.post(`/api/v1/test-cases/${cases[2]!.ulid}/archive`).set(owner.headers)).status).toBe(200);
    await createMilestone(t.http, owner, busy.id);
    await createMilestone(t.http, owner, busy.id, { name: 'Second' });
    await createRun(t.http, owner, busy.id, { caseUlids: [cases[0]!.ulid] });
    const closed = await createRun(t.http, owner, busy.id, { caseUlids: [cases[1]!.ulid] });
    expect((await t.http.post(`/api/v1/runs/${closed.ulid}/close`).set(owner.headers)).status).toBe(200);

    const stats = await graphqlStats(owner);
    expect(stats.get(busy.id)).toEqual({
      cases: 2,
      runs: 2,
      runsInProgress: 1,
      defectsUnresolved: 0,
      milestones: 2,
    });
    expect(stats.get(empty.id)).toEqual({ cases: 0, runs: 0, runsInProgress: 0, defectsUnresolved: 0, milestones: 0 });
    expect(stats).toEqual(await restStats(owner));
  });

  it('costs the same number of statements for a page of 3 projects as for 60', async () => {
    const seeded = async (count: number) => {
      const owner = await signUp(t.http);
      const projects = Array.from({ length: count }, (_, index) => ({
        id: newId(),
        orgId: owner.orgId,
        code: `Q${index}X${newId().slice(-6)}`,
        name: `Seeded ${index}`,
      }));
      await prisma().project.createMany({ data: projects });
      await createCases(t.http, owner, projects[0]!.code, 2);
      return owner;
    };
    const few = await seeded(3);
    const many = await seeded(60);
    const measure = (caller: Caller) => recordStatements(() => graphqlStats(caller));
    const small = await measure(few);
    const large = await measure(many);
    expect(small.result.size).toBe(3);
    expect(large.result.size).toBe(60);
    expect([...large.result.values()].filter((stats) => stats.cases === 2)).toHaveLength(1);
    expect(large.statements.length, large.statements.join('\n')).toBe(small.statements.length);
  });
});
