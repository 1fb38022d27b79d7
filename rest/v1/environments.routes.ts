import type { RouteDefinition } from '../route.ts';

export const environmentRoutes: RouteDefinition[] = [];
