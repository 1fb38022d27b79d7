import type { RouteDefinition } from '../route.ts';

export const stepAttachmentRoutes: RouteDefinition[] = [];
