import type { RouteDefinition } from '../route.ts';

export const customFieldRoutes: RouteDefinition[] = [];
