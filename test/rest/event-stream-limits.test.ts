import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { STREAM_RETRY_AFTER_SECONDS } from '../../src/live/stream-places.service.ts';
import { type Caller, signUp, tokenFor, useTestApp } from '../support/app.ts';
import { type EventStream, openStreamsGauge, until, useListeningApp } from '../support/event-streams.ts';
import { createPlan, runWithCases } from '../support/runs.ts';

/**
 * Open event streams per credential and per client address (decisions: "Open event streams"),
 * with small caps. Behind a trusted proxy each test is an address of its own.
 */
const PER_CREDENTIAL = 2;
const PER_ADDRESS = 3;
const t = useTestApp({
  TCMS_TRUST_PROXY: 'true',
  TCMS_SSE_STREAMS_PER_CREDENTIAL: String(PER_CREDENTIAL),
  TCMS_SSE_STREAMS_PER_ADDRESS: String(PER_ADDRESS),
});
const live = useListeningApp(t);

const newAddress = () => `10.${randomBytes(3).join('.')}`;

type Opened = EventStream & { errorBody?: unknown };

const RUN_PROGRESS = 'subscription($runUlid: String!) { runProgress(runUlid: $runUlid) { total } }';

/** A client at `address`: REST and GraphQL streams of a run, and the public stream of a share link. */
const clientAt = (address: string) => ({
  runEvents: (caller: Caller, runUlid: string) =>
    live.open(`/api/v1/runs/${runUlid}/events`, { headers: { ...caller.headers, 'X-Forwarded-For': address } }),
  planEvents: (caller: Caller, planUlid: string) =>
    live.open(`/api/v1/plans/${planUlid}/events`, { headers: { ...caller.headers, 'X-Forwarded-For': address } }),
  sharedEvents: (token: string) => live.open(`/api/v1/public/runs/${token}/events`, { headers: { 'X-Forwarded-For': address } }),
  subscription: (caller: Caller, runUlid: string) =>
    live.open('/graphql', {
      method: 'POST',
      headers: { ...caller.headers, 'X-Forwarded-For': address, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: RUN_PROGRESS, variables: { runUlid } }),
    }),
  /** The same subscription read whole: a refused one is a complete answer. */
  refusedSubscription: (caller: Caller, runUlid: string) =>
    t.http
      .post('/graphql')
      .set(caller.headers)
      .set('X-Forwarded-For', address)
      .set('Accept', 'text/event-stream')
      .send({ query: RUN_PROGRESS, variables: { runUlid } }),
});

/** Open: 200 and the first event came (the stream holds its place from then on). */
async function expectOpen(stream: Opened | Promise<Opened>) {
  const opened = await stream;
  expect(opened.status, JSON.stringify(opened.errorBody)).toBe(200);
  await opened.nextEvent();
  return opened;
}

function expectRefused(stream: Opened, limit: number) {
  expect(stream.status).toBe(429);
  expect(stream.headers.get('retry-after')).toBe(String(STREAM_RETRY_AFTER_SECONDS));
  expect(stream.errorBody).toMatchObject({
    error: {
      code: 'too_many_requests',
      message: expect.stringContaining(`At most ${limit}`),
      details: { code: 'too_many_streams', limit, retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
    },
  });
}

/** Polls until opening is let in again: the server hears of a closed stream when its socket closes. */
async function untilOpen(open: () => Promise<Opened>) {
  await until(async () => {
    const stream = await open();
    if (stream.status !== 200) return stream.status;
    await stream.nextEvent();
    return 200;
  }, 200);
}

describe('open event streams per credential', () => {
  it(`lets one API token hold ${PER_CREDENTIAL} streams (runs and plans) in all, from any address; closing one lets another in`, async () => {
    const { owner, code, run } = await runWithCases(t.http, 1);
    const token = await tokenFor(t.http, owner);
    const plan = await createPlan(t.http, owner, code);
    const here = clientAt(newAddress());
    const first = await expectOpen(here.runEvents(token, run.ulid));
    await expectOpen(here.runEvents(token, run.ulid));

    expectRefused(await here.runEvents(token, run.ulid), PER_CREDENTIAL);
    expectRefused(await clientAt(newAddress()).runEvents(token, run.ulid), PER_CREDENTIAL);
    expectRefused(await here.planEvents(token, plan.ulid), PER_CREDENTIAL);
    // Another credential of the same user, and the user's session, have places of their own.
    await expectOpen(here.runEvents(await tokenFor(t.http, owner), run.ulid));

    first.close();
    await untilOpen(() => here.runEvents(token, run.ulid));
  });

  it('counts GraphQL subscriptions with the REST streams; a refused subscription is HTTP 429 with Retry-After', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const here = clientAt(newAddress());
    const subscription = await expectOpen(here.subscription(owner, run.ulid));
    await expectOpen(here.runEvents(owner, run.ulid));

    expectRefused(await here.runEvents(owner, run.ulid), PER_CREDENTIAL);
    const refused = await here.refusedSubscription(owner, run.ulid);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(STREAM_RETRY_AFTER_SECONDS));
    const [, data] = /^data: (.+)$/m.exec(refused.text) ?? [];
    expect(JSON.parse(data!).errors).toMatchObject([
      {
        extensions: {
          code: 'too_many_requests',
          details: { code: 'too_many_streams', limit: PER_CREDENTIAL, retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS },
        },
      },
    ]);

    subscription.close();
    await untilOpen(() => here.runEvents(owner, run.ulid));
  });

  it('gives the place of a stream that could not open back at once', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const here = clientAt(newAddress());
    for (let attempt = 0; attempt <= PER_CREDENTIAL; attempt += 1)
      expect((await here.runEvents(owner, '01ARZ3NDEKTSV4RRFFQ69G5FAV')).status).toBe(404);
    await expectOpen(here.runEvents(owner, run.ulid));
    await expectOpen(here.runEvents(owner, run.ulid));
  });
});

describe('open event streams per client address', () => {
  it(`lets one address hold ${PER_ADDRESS} streams whatever their credentials, public share streams included`, async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const link = await t.http.post(`/api/v1/runs/${run.ulid}/share-links`).set(owner.headers).send({});
    expect(link.status).toBe(201);
    const stranger = await signUp(t.http);
    const here = clientAt(newAddress());
    const shared = await expectOpen(here.sharedEvents(link.body.token));
    await expectOpen(here.runEvents(owner, run.ulid));
    await expectOpen(here.runEvents(await tokenFor(t.http, owner), run.ulid));

    expectRefused(await here.runEvents(await tokenFor(t.http, owner), run.ulid), PER_ADDRESS);
    expectRefused(await here.sharedEvents(link.body.token), PER_ADDRESS);
    const refused = await here.refusedSubscription(owner, run.ulid);
    expect(refused.status).toBe(429);
    // Refused before anything is read: a run the caller may not see answers 429 too.
    expectRefused(await here.runEvents(stranger, run.ulid), PER_ADDRESS);
    await expectOpen(clientAt(newAddress()).sharedEvents(link.body.token));

    shared.close();
    await untilOpen(() => here.sharedEvents(link.body.token));
  });

  it('frees every place when the streams close', async () => {
    const { owner, run } = await runWithCases(t.http, 1);
    const here = clientAt(newAddress());
    await until(() => openStreamsGauge(t), 0);
    const streams = [await expectOpen(here.runEvents(owner, run.ulid)), await expectOpen(here.subscription(owner, run.ulid))];
    for (const stream of streams) stream.close();
    await until(() => openStreamsGauge(t), 0);
    await expectOpen(here.runEvents(owner, run.ulid));
    await expectOpen(here.subscription(owner, run.ulid));
  });
});
