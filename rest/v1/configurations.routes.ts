import type { RouteDefinition } from '../route.ts';

export const configurationRoutes: RouteDefinition[] = [];
