import { orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { resultUsageSchema } from '../../src/runs/run-cases.schemas.ts';
import { seatUsageSchema } from '../../src/seats/seats.schemas.ts';
import { readSeatUsage } from '../../src/seats/seats.service.ts';
import { readResultUsage } from '../../src/usage/usage.service.ts';
import { defineRoute } from '../route.ts';

export const usageRoutes = [
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/api-result-usage',
    operationId: 'getApiResultUsage',
    summary: 'Machine-authored results of this calendar month against the monthly ceiling',
    tag: 'Usage',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    success: { status: 200, description: 'The month, the results counted and the ceiling', schema: resultUsageSchema },
    errors: [403, 404],
    handle: ({ ctx }) => readResultUsage(ctx),
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}/seat-usage',
    operationId: 'getSeatUsage',
    summary: 'Seats in use (members and pending invitations, never viewers) against the seat limit',
    tag: 'Usage',
    auth: 'org',
    orgParam: 'orgUlid',
    params: orgPathSchema,
    success: { status: 200, description: 'Seats used and the limit', schema: seatUsageSchema },
    errors: [403, 404],
    handle: ({ ctx }) => readSeatUsage(ctx),
  }),
];
