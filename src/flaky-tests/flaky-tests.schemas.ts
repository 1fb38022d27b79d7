import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../kernel/pagination.ts';
import { queryInteger } from '../kernel/validation.ts';

export const WINDOW_MIN = 5;
export const WINDOW_MAX = 100;
/** The most recent results each item shows. */
export const LAST_RESULTS_MAX = 10;

export const flakyTestsQuerySchema = pageQuerySchema()
  .extend({
    window: queryInteger(WINDOW_MIN, WINDOW_MAX)
      .optional()
      .default(20)
      .meta({ description: `The most recent passed or failed results of each case that are looked at, ${WINDOW_MIN}..${WINDOW_MAX}` }),
    minFlips: queryInteger(1, WINDOW_MAX - 1)
      .optional()
      .default(3)
      .meta({ description: 'Flips between passed and failed that make a case flaky, 1..window-1' }),
  })
  .refine((query) => query.minFlips <= query.window - 1, { message: 'minFlips must be at most window - 1', path: ['minFlips'] });
export type FlakyTestsQuery = z.output<typeof flakyTestsQuerySchema>;

export const flakyTestSchema = z
  .object({
    caseUlid: z.string(),
    displayId: z.string(),
    title: z.string(),
    flips: z.number().int().meta({ description: 'Changes between passed and failed from one result to the next in the window' }),
    flakyRate: z.number().meta({ description: 'flips / (resultsInWindow - 1): 0 never flips, 1 flips every time' }),
    resultsInWindow: z.number().int(),
    flaggedFlaky: z.number().int().meta({ description: 'Results of the window flagged flaky (failed, then passed on retry)' }),
    lastResults: z
      .array(
        z.object({
          resultUlid: z.string(),
          runUlid: z.string(),
          status: z.enum(['passed', 'failed']),
          executedAt: z.number().int(),
          flaky: z.boolean(),
        }),
      )
      .meta({ description: `The ${LAST_RESULTS_MAX} most recent results of the window, most recent first` }),
    runs: z
      .array(z.object({ ulid: z.string(), name: z.string() }))
      .meta({ description: 'The runs of the results of the window, the most recently executed first' }),
  })
  .meta({ id: 'FlakyTest' });
export type FlakyTest = z.output<typeof flakyTestSchema>;

export const flakyTestPageSchema = pageSchema(flakyTestSchema).meta({ id: 'FlakyTestPage' });
