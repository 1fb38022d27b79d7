import { z } from 'zod';

export const livenessSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string().meta({ description: 'The version of tcms serving the request', example: '0.1.0' }),
  })
  .meta({ id: 'Liveness' });

export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.object({ database: z.enum(['up', 'down']) }),
  })
  .meta({ id: 'Readiness', description: 'status ready with 200; unavailable with 503 while a dependency is down' });
