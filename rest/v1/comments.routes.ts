import type { RouteDefinition } from '../route.ts';

export const commentRoutes: RouteDefinition[] = [];
