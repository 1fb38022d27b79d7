import { auditRoutes } from './audit.routes.ts';
import { authRoutes } from './auth.routes.ts';
import { commentRoutes } from './comments.routes.ts';
import { configurationRoutes } from './configurations.routes.ts';
import { customFieldRoutes } from './custom-fields.routes.ts';
import { defectRoutes } from './defects.routes.ts';
import { environmentRoutes } from './environments.routes.ts';
import { exportRoutes } from './exports.routes.ts';
import { flakyTestRoutes } from './flaky-tests.routes.ts';
import { groupRoutes } from './groups.routes.ts';
import { invitationRoutes } from './invitations.routes.ts';
import { liveProgressRoutes } from './live-progress.routes.ts';
import { memberRoutes } from './members.routes.ts';
import { milestoneRoutes } from './milestones.routes.ts';
import { oauthGrantRoutes } from './oauth-grants.routes.ts';
import { planRoutes } from './plans.routes.ts';
import { projectAccessRoutes } from './project-access.routes.ts';
import { projectRoutes } from './projects.routes.ts';
import { reportRoutes } from './reports.routes.ts';
import { resultAttachmentRoutes } from './result-attachments.routes.ts';
import { resultImportRoutes } from './result-imports.routes.ts';
import { runCaseRoutes } from './run-cases.routes.ts';
import { runCaseBulkRoutes } from './run-cases-bulk.routes.ts';
import { runSettingsRoutes } from './run-settings.routes.ts';
import { runRoutes } from './runs.routes.ts';
import { shareLinkRoutes } from './share-links.routes.ts';
import { stepAttachmentRoutes } from './step-attachments.routes.ts';
import { subscriptionRoutes } from './subscription.routes.ts';
import { suiteRoutes } from './suites.routes.ts';
import { systemRoutes } from './system.routes.ts';
import { testCaseImportRoutes } from './test-case-imports.routes.ts';
import { testCaseRoutes } from './test-cases.routes.ts';
import { tokenRoutes } from './tokens.routes.ts';
import { usageRoutes } from './usage.routes.ts';
import { webhookRoutes } from './webhooks.routes.ts';

/** Every /api/v1 route, in the order the OpenAPI document lists them. */
export const v1Routes = [
  ...systemRoutes,
  ...authRoutes,
  ...tokenRoutes,
  ...oauthGrantRoutes,
  ...projectRoutes,
  ...projectAccessRoutes,
  ...suiteRoutes,
  ...testCaseRoutes,
  ...testCaseImportRoutes,
  ...flakyTestRoutes,
  ...reportRoutes,
  ...stepAttachmentRoutes,
  ...commentRoutes,
  ...customFieldRoutes,
  ...milestoneRoutes,
  ...environmentRoutes,
  ...configurationRoutes,
  ...defectRoutes,
  ...planRoutes,
  ...runRoutes,
  ...runCaseRoutes,
  ...resultAttachmentRoutes,
  ...runCaseBulkRoutes,
  ...liveProgressRoutes,
  ...shareLinkRoutes,
  ...resultImportRoutes,
  ...runSettingsRoutes,
  ...auditRoutes,
  ...exportRoutes,
  ...usageRoutes,
  ...subscriptionRoutes,
  ...memberRoutes,
  ...invitationRoutes,
  ...groupRoutes,
  ...webhookRoutes,
];
