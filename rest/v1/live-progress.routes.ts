import { z } from 'zod';
import { subscribeToPlanProgress, subscribeToRunProgress } from '../../src/live/progress-streams.service.ts';
import { planPathSchema } from '../../src/plans/plans.schemas.ts';
import { runPathSchema } from '../../src/runs/runs.schemas.ts';
import { EVENTS_DESCRIPTION as EVENTS, eventStreamReply } from '../event-stream.ts';
import { defineRoute } from '../route.ts';

export const liveProgressRoutes = [
  defineRoute({
    method: 'get',
    path: '/runs/{runUlid}/events',
    operationId: 'streamRunProgress',
    summary: "The run's progress as it changes (Server-Sent Events)",
    tag: 'Runs',
    auth: 'org',
    params: runPathSchema,
    success: {
      status: 200,
      description: EVENTS('run', '`{ runUlid, state, counts, total, passRate, lastResultAt }`'),
      media: { 'text/event-stream': z.string() },
    },
    errors: [403, 404],
    handle: ({ ctx, ip, params }) =>
      eventStreamReply({ identity: ctx.identity, address: ip }, () => subscribeToRunProgress(ctx, params.runUlid)),
  }),
  defineRoute({
    method: 'get',
    path: '/plans/{planUlid}/events',
    operationId: 'streamPlanProgress',
    summary: "The plan's progress as its runs change (Server-Sent Events)",
    tag: 'Plans',
    auth: 'org',
    params: planPathSchema,
    success: {
      status: 200,
      description: EVENTS('plan', '`progress` object (as the plan detail shows it)'),
      media: { 'text/event-stream': z.string() },
    },
    errors: [403, 404],
    handle: ({ ctx, ip, params }) =>
      eventStreamReply({ identity: ctx.identity, address: ip }, () => subscribeToPlanProgress(ctx, params.planUlid)),
  }),
];
