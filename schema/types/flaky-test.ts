import { type FlakyTest, flakyTestsQuerySchema } from '../../src/flaky-tests/flaky-tests.schemas.ts';
import { flakyTestsOf } from '../../src/flaky-tests/flaky-tests.service.ts';
import { validate } from '../../src/kernel/validation.ts';
import { orUndefined } from '../arguments.ts';
import { builder } from '../builder.ts';
import { requestOf } from '../context.ts';

type FlakyResult = FlakyTest['lastResults'][number];
type FlakyRun = FlakyTest['runs'][number];
type FlakyTestPage = { items: FlakyTest[]; page: number; pageSize: number; total: number };

const FlakyResultRef = builder.objectRef<FlakyResult>('FlakyTestResult').implement({
  fields: (t) => ({
    resultUlid: t.exposeString('resultUlid'),
    runUlid: t.exposeString('runUlid'),
    status: t.exposeString('status', { description: 'passed or failed' }),
    executedAt: t.field({ type: 'Timestamp', resolve: (result) => new Date(result.executedAt) }),
    flaky: t.exposeBoolean('flaky'),
  }),
});

const FlakyRunRef = builder.objectRef<FlakyRun>('FlakyTestRun').implement({
  fields: (t) => ({ ulid: t.exposeString('ulid'), name: t.exposeString('name') }),
});

const FlakyTestRef = builder.objectRef<FlakyTest>('FlakyTest').implement({
  description: 'A case whose recent results flip between passed and failed, or were flagged flaky (REST …/flaky-tests)',
  fields: (t) => ({
    caseUlid: t.exposeString('caseUlid'),
    displayId: t.exposeString('displayId'),
    title: t.exposeString('title'),
    flips: t.exposeInt('flips'),
    flakyRate: t.exposeFloat('flakyRate', { description: 'flips / (resultsInWindow - 1)' }),
    resultsInWindow: t.exposeInt('resultsInWindow'),
    flaggedFlaky: t.exposeInt('flaggedFlaky'),
    lastResults: t.field({ type: [FlakyResultRef], resolve: (item) => item.lastResults, description: 'Most recent first, at most 10' }),
    runs: t.field({ type: [FlakyRunRef], resolve: (item) => item.runs }),
  }),
});

const FlakyTestPageRef = builder.objectRef<FlakyTestPage>('FlakyTestPage').implement({
  fields: (t) => ({
    items: t.field({ type: [FlakyTestRef], resolve: (page) => page.items }),
    page: t.exposeInt('page'),
    pageSize: t.exposeInt('pageSize'),
    total: t.exposeInt('total'),
  }),
});

builder.prismaObjectField('Project', 'flakyTests', (t) =>
  t.field({
    type: FlakyTestPageRef,
    description: 'Flaky cases, most flips first (REST GET …/flaky-tests)',
    authScopes: { member: true },
    args: {
      window: t.arg.int({ description: 'Most recent passed or failed results looked at per case, 5..100 (default 20)' }),
      minFlips: t.arg.int({ description: 'Flips that make a case flaky, 1..window-1 (default 3)' }),
      page: t.arg.int({ description: 'From 1' }),
      pageSize: t.arg.int({ description: '1..200 (default 50)' }),
    },
    resolve: (project, args, context) =>
      flakyTestsOf(
        requestOf(context),
        project,
        validate(flakyTestsQuerySchema, {
          window: orUndefined(args.window),
          minFlips: orUndefined(args.minFlips),
          page: orUndefined(args.page),
          pageSize: orUndefined(args.pageSize),
        }),
      ),
  }),
);
