import { z } from 'zod';
import { defineRoute } from '../route.ts';

export const systemRoutes = [
  defineRoute({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Health probe; 200 once the database is ready',
    tag: 'System',
    auth: 'none',
    success: { status: 200, description: 'The service is up', schema: z.object({ status: z.literal('ok') }) },
    handle: async () => ({ status: 'ok' }),
  }),
];
