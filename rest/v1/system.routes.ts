import { livenessSchema, readinessSchema } from '../../src/foundation/health/health.schemas.ts';
import { checkReadiness } from '../../src/foundation/health/health.service.ts';
import { SERVICE_VERSION } from '../../src/kernel/version.ts';
import { defineRoute, Reply } from '../route.ts';

export const systemRoutes = [
  defineRoute({
    method: 'get',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness probe: 200 while the process serves requests, with the version serving them',
    tag: 'System',
    auth: 'none',
    success: { status: 200, description: 'The service is up', schema: livenessSchema },
    handle: async () => ({ status: 'ok', version: SERVICE_VERSION }),
  }),
  defineRoute({
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    summary: 'Readiness probe: 200 when the database answers, 503 while it does not',
    tag: 'System',
    auth: 'none',
    success: { status: 200, description: 'Ready to serve', schema: readinessSchema },
    otherResponses: { 503: { description: 'A dependency (the database) does not answer', schema: readinessSchema } },
    handle: async () => {
      const readiness = await checkReadiness();
      return new Reply(readiness.ready ? 200 : 503, { status: readiness.ready ? 'ready' : 'unavailable', checks: readiness.checks });
    },
  }),
];
