import {
  subscribeToPlanProgress,
  subscribeToRunProgress,
  type ProgressEvent,
  type RunProgress,
} from '../../src/live/progress-streams.service.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';
import { PlanProgressRef } from './plan.ts';
import { StatusCounts } from './run.ts';

const RunProgressRef = builder.objectRef<RunProgress>('RunProgress').implement({
  description: "A run's counters as they change (the run stream of decisions §14)",
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

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  runProgress: t.field({
    type: RunProgressRef,
    description: "The run's progress now, then after each change (at most one event per 250 ms); a run the caller cannot read is not_found",
    authScopes: { member: true },
    args: { runUlid: t.arg.string({ required: true }) },
    subscribe: (_root, args, context) => subscribeToRunProgress(requestOf(context), args.runUlid),
    resolve: dataOf,
  }),
  planProgress: t.field({
    type: PlanProgressRef,
    description: "The plan's progress now, then after each change of its runs (at most one event per 250 ms)",
    authScopes: { member: true },
    args: { planUlid: t.arg.string({ required: true }) },
    subscribe: (_root, args, context) => subscribeToPlanProgress(requestOf(context), args.planUlid),
    resolve: dataOf,
  }),
}));
