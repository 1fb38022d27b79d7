import { createGraphQLError } from 'graphql-yoga';
import type { RequestContext } from '../../src/foundation/context.ts';
import { AppError } from '../../src/kernel/errors.ts';
import {
  type ProgressEvent,
  type RunProgress,
  subscribeToPlanProgress,
  subscribeToRunProgress,
} from '../../src/live/progress-streams.service.ts';
import { type ClosableStream, heldStream } from '../../src/live/stream-places.service.ts';
import { builder } from '../builder.ts';
import { type GraphQLContext, requestOf } from '../context.ts';
import { PlanProgressRef } from './plan.ts';
import { StatusCounts } from './run.ts';

const RunProgressRef = builder.objectRef<RunProgress>('RunProgress').implement({
  description: "A run's counters as they change (the run stream of contract §14)",
  fields: (t) => ({
    runUlid: t.exposeString('runUlid'),
    state: t.exposeString('state'),
    counts: t.field({ type: StatusCounts, resolve: (progress) => progress.counts }),
    total: t.exposeInt('total'),
    passRate: t.exposeFloat('passRate'),
    lastResultAt: t.field({
      type: 'Timestamp',
      nullable: true,
      resolve: (progress) => (progress.lastResultAt === null ? null : new Date(progress.lastResultAt)),
    }),
  }),
});

const dataOf = <T>(event: ProgressEvent<T>) => event.data;

/**
 * The caller's stream from `open`, holding one of their places (src/live/stream-places.service.ts). None
 * left is refused as on REST, before the stream starts: HTTP 429 with Retry-After, the error
 * (too_many_requests) in the body.
 */
async function placedStream<T>(context: GraphQLContext, open: (ctx: RequestContext) => Promise<ClosableStream<ProgressEvent<T>>>) {
  const ctx = requestOf(context);
  try {
    return await heldStream({ identity: ctx.identity, address: context.clientAddress }, () => open(ctx));
  } catch (error) {
    if (!(error instanceof AppError) || error.details?.code !== 'too_many_streams') throw error;
    throw createGraphQLError(error.message, {
      extensions: {
        code: error.code,
        details: error.details,
        http: { status: 429, headers: { 'Retry-After': String(error.details.retryAfterSeconds) } },
      },
    });
  }
}

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  runProgress: t.field({
    type: RunProgressRef,
    description: "The run's progress now, then after each change (at most one event per 250 ms); a run the caller cannot read is not_found",
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }) },
    subscribe: (_root, args, context) => placedStream(context, (ctx) => subscribeToRunProgress(ctx, args.runUlid)),
    resolve: dataOf,
  }),
  planProgress: t.field({
    type: PlanProgressRef,
    description: "The plan's progress now, then after each change of its runs (at most one event per 250 ms)",
    authScopes: { member: true },
    args: { planUlid: t.arg.string({ required: true }) },
    subscribe: (_root, args, context) => placedStream(context, (ctx) => subscribeToPlanProgress(ctx, args.planUlid)),
    resolve: dataOf,
  }),
}));
