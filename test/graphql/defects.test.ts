import { describe, expect, it } from 'vitest';
import { auditEvents, type Caller, graphql, joinAs, useTestApp } from '../support/app.ts';
import { codeOf, dataOf } from '../support/graphql.ts';
import { patchRunCase, resultsOf, runWithCases } from '../support/runs.ts';
import { recordStatements } from '../support/statements.ts';

const t = useTestApp();

const DEFECT = `ulid projectUlid defectNumber title description status assigneeUlid externalUrl
  author { kind ulid displayName } customFieldValues { fieldUlid value optionName } createdAt updatedAt`;

const CREATE = `mutation($code: String!, $input: CreateDefectInput!) { createDefect(projectCode: $code, input: $input) { ${DEFECT} } }`;
const UPDATE = `mutation($ulid: String!, $input: UpdateDefectInput!) { updateDefect(ulid: $ulid, input: $input) { ${DEFECT} } }`;

async function createDefect(caller: Caller, code: string, input: Record<string, unknown>) {
  return dataOf(await graphql(t.http, caller, CREATE, { code, input })).createDefect as {
    ulid: string;
    defectNumber: number;
    createdAt: number;
  };
}

/** A run of `count` failed cases, each with one result. */
async function failedRun(count: number) {
  const setup = await runWithCases(t.http, count);
  for (const runCase of setup.runCases) await patchRunCase(t.http, setup.owner, setup.run.ulid, runCase.ulid, { status: 'failed' });
  return { ...setup, results: await resultsOf(t.http, setup.owner, setup.run.ulid) };
}

describe('GraphQL: defects', () => {
  it('creates, reads, edits and deletes defects exactly as REST answers them, through the same audit trail', async () => {
    const { owner, code, results } = await failedRun(1);
    const created = await createDefect(owner, code, { title: 'Broken', status: 'in_progress', resultUlids: [results[0]!.ulid] });
    const rest = await t.http.get(`/api/v1/defects/${created.ulid}`).set(owner.headers);
    const { author, ...restFields } = rest.body;
    expect(created).toMatchObject({
      ...restFields,
      customFieldValues: [],
      author: { kind: author.kind, ulid: author.ulid, displayName: author.displayName },
    });

    const updated = dataOf(
      await graphql(t.http, owner, UPDATE, {
        ulid: created.ulid,
        input: { status: 'resolved', externalUrl: 'https://bugs.example.com/1' },
      }),
    ).updateDefect;
    expect(updated).toMatchObject({ status: 'resolved', externalUrl: 'https://bugs.example.com/1' });
    const [event] = await auditEvents(t.http, owner, { action: 'defect.updated' });
    expect(event!.metadata.changes).toEqual([
      { field: 'status', from: 'in_progress', to: 'resolved' },
      { field: 'externalUrl', from: null, to: 'https://bugs.example.com/1' },
    ]);
    const invalid = await graphql(t.http, owner, UPDATE, { ulid: created.ulid, input: {} });
    expect(codeOf(invalid)).toBe('validation_failed');

    const removed = await graphql(t.http, owner, `mutation($ulid: String!) { deleteDefect(ulid: $ulid) }`, { ulid: created.ulid });
    expect(dataOf(removed).deleteDefect).toBe(true);
    expect(codeOf(await graphql(t.http, owner, `query($ulid: String!) { defect(ulid: $ulid) { ulid } }`, { ulid: created.ulid }))).toBe(
      'not_found',
    );
    expect(await auditEvents(t.http, owner, { action: 'defect.deleted' })).toHaveLength(1);
  });

  it('lists Project.defects with filters and Run.defects with their linked results, batched whatever the page holds', async () => {
    const { owner, code, run, runCases, results } = await failedRun(6);
    const member = await joinAs(t.http, owner, 'member');
    for (const [index, result] of results.entries()) {
      await createDefect(owner, code, {
        title: `Defect ${index}`,
        status: index % 2 === 0 ? 'open' : 'closed',
        resultUlids: [result.ulid],
        assigneeUlid: index === 0 ? member.userId : null,
      });
    }
    const listing = `query($code: String!, $status: [DefectStatus!], $q: String, $assignee: String, $first: Int) {
      project(code: $code) { defects(status: $status, q: $q, assigneeUlid: $assignee, first: $first) {
        totalCount edges { node { defectNumber title linkedResults { resultUlid runUlid caseDisplayId status } } } } } }`;
    const all = dataOf(await graphql(t.http, owner, listing, { code })).project.defects;
    expect(all.totalCount).toBe(6);
    expect(all.edges.map((edge: { node: { defectNumber: number } }) => edge.node.defectNumber)).toEqual([6, 5, 4, 3, 2, 1]);
    const first = all.edges.at(-1).node;
    expect(first.linkedResults).toEqual([
      { resultUlid: results[0]!.ulid, runUlid: run.ulid, caseDisplayId: expect.any(String), status: 'failed' },
    ]);
    expect(runCases.map((runCase) => runCase.displayId)).toContain(first.linkedResults[0].caseDisplayId);

    const open = dataOf(await graphql(t.http, owner, listing, { code, status: ['open'] })).project.defects;
    expect(open.totalCount).toBe(3);
    expect(dataOf(await graphql(t.http, owner, listing, { code, q: 'defect 5' })).project.defects.totalCount).toBe(1);
    expect(dataOf(await graphql(t.http, owner, listing, { code, assignee: member.userId })).project.defects.totalCount).toBe(1);

    // Two and six defects with their linked results and values cost the same number of statements.
    const cost = async (first: number) =>
      (
        await recordStatements(() =>
          graphql(t.http, owner, listing.replace('linkedResults', 'customFieldValues { value } linkedResults'), { code, first }),
        )
      ).statements.length;
    expect(await cost(6)).toBe(await cost(2));

    const byRun = `query($run: String!) { run(ulid: $run) { defects { totalCount edges { node { title } } } } }`;
    const runDefects = dataOf(await graphql(t.http, owner, byRun, { run: run.ulid })).run.defects;
    expect(runDefects.totalCount).toBe(6);
  });

  it('links and unlinks results and comments on defects through the shared comment mutations', async () => {
    const { owner, code, results } = await failedRun(1);
    const defect = await createDefect(owner, code, { title: 'Broken' });
    const link = `mutation($d: String!, $r: String!) { linkDefectResult(defectUlid: $d, resultUlid: $r) { resultUlid status } }`;
    expect(dataOf(await graphql(t.http, owner, link, { d: defect.ulid, r: results[0]!.ulid })).linkDefectResult).toEqual({
      resultUlid: results[0]!.ulid,
      status: 'failed',
    });
    expect(dataOf(await graphql(t.http, owner, link, { d: defect.ulid, r: results[0]!.ulid })).linkDefectResult.resultUlid).toBe(
      results[0]!.ulid,
    );
    expect(await auditEvents(t.http, owner, { action: 'defect.linked' })).toHaveLength(1);
    const unlink = `mutation($d: String!, $r: String!) { unlinkDefectResult(defectUlid: $d, resultUlid: $r) }`;
    expect(dataOf(await graphql(t.http, owner, unlink, { d: defect.ulid, r: results[0]!.ulid })).unlinkDefectResult).toBe(true);
    expect(codeOf(await graphql(t.http, owner, unlink, { d: defect.ulid, r: results[0]!.ulid }))).toBe('not_found');

    const add = `mutation($d: String, $c: String) { addComment(defectUlid: $d, caseUlid: $c, input: { body: "Seen on CI" }) { ulid body } }`;
    const comment = dataOf(await graphql(t.http, owner, add, { d: defect.ulid })).addComment;
    expect(comment.body).toBe('Seen on CI');
    expect(codeOf(await graphql(t.http, owner, add, {}))).toBe('validation_failed');
    expect(codeOf(await graphql(t.http, owner, add, { d: defect.ulid, c: defect.ulid }))).toBe('validation_failed');
    const pin = `mutation($d: String!, $c: String!) { pinComment(defectUlid: $d, commentUlid: $c) { pinnedAt } }`;
    expect(dataOf(await graphql(t.http, owner, pin, { d: defect.ulid, c: comment.ulid })).pinComment.pinnedAt).toEqual(expect.any(Number));
    const read = `query($ulid: String!) { defect(ulid: $ulid) { comments { totalCount edges { node { body pinnedAt } } } } }`;
    expect(dataOf(await graphql(t.http, owner, read, { ulid: defect.ulid })).defect.comments.totalCount).toBe(1);
    const actions = (await auditEvents(t.http, owner, { actionPrefix: 'defect.comment' })).map((event) => event.action).sort();
    expect(actions).toEqual(['defect.comment_pinned', 'defect.commented']);
  });

  it('refuses a viewer every defect mutation with forbidden', async () => {
    const { owner, code } = await failedRun(1);
    const viewer = await joinAs(t.http, owner, 'viewer');
    const defect = await createDefect(owner, code, { title: 'Broken' });
    expect(codeOf(await graphql(t.http, viewer, CREATE, { code, input: { title: 'No' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, UPDATE, { ulid: defect.ulid, input: { status: 'closed' } }))).toBe('forbidden');
    expect(codeOf(await graphql(t.http, viewer, `mutation($ulid: String!) { deleteDefect(ulid: $ulid) }`, { ulid: defect.ulid }))).toBe(
      'forbidden',
    );
    const read = dataOf(await graphql(t.http, viewer, `query($ulid: String!) { defect(ulid: $ulid) { status } }`, { ulid: defect.ulid }));
    expect(read.defect.status).toBe('open');
  });
});
