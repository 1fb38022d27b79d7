import type { RouteDefinition } from '../route.ts';

export const milestoneRoutes: RouteDefinition[] = [];
