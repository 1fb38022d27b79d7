import { auditRoutes } from './audit.routes.ts';
import { authRoutes } from './auth.routes.ts';
import { projectRoutes } from './projects.routes.ts';
import { systemRoutes } from './system.routes.ts';
import { tokenRoutes } from './tokens.routes.ts';

/** Every /api/v1 route, in the order the OpenAPI document lists them. */
export const v1Routes = [...systemRoutes, ...authRoutes, ...tokenRoutes, ...projectRoutes, ...auditRoutes];
