import type { RouteDefinition } from '../route.ts';

export const testCaseRoutes: RouteDefinition[] = [];
