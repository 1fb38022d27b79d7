import type { RouteDefinition } from '../route.ts';

export const suiteRoutes: RouteDefinition[] = [];
