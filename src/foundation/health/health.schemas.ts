import { z } from 'zod';

export const livenessSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Liveness' });

export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.object({ database: z.enum(['up', 'down']) }),
  })
  .meta({ id: 'Readiness', description: 'status ready with 200; unavailable with 503 while a dependency is down' });
