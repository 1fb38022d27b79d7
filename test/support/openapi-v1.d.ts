// Generated from /openapi/v1.json by `npm run openapi:types`: do not edit.
export interface paths {
    "/api/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe: 200 while the process serves requests, with the version serving them */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/health/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: 200 when the database answers, 503 while it does not */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign up, or repair an account whose password matches */
        post: operations["signUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Prove the email address with the verification mail's token (no session needed) */
        post: operations["verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/verify-email/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send the verification mail again with a new token (the earlier one stops working); at most 5 an hour */
        post: operations["resendVerificationEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password */
        post: operations["logIn"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a password reset token to the account with this address (in the language of Accept-Language); the same answer whether an account has it or not; at most 5 an hour per address and 20 per client address */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with the password reset mail's token (once, within an hour): ends every session of the user (API tokens stay) and verifies the address */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Destroy the session */
        post: operations["logOut"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/auth/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user and their organizations */
        get: operations["getSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an organization owned by the caller */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An organization the caller belongs to */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/api-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's live API tokens in the active organization */
        get: operations["listApiTokens"];
        put?: never;
        /** Create an API token; the secret is shown once */
        post: operations["createApiToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/api-tokens/{tokenUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API token */
        delete: operations["revokeApiToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/oauth-grants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The applications (OAuth clients) the caller authorized in the active organization */
        get: operations["listOAuthGrants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/me/oauth-grants/{grantUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Disconnect an authorized application: its access and refresh tokens stop working */
        delete: operations["revokeOAuthGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects of the organization */
        get: operations["listProjects"];
        put?: never;
        /** Create a project (owner/admin) */
        post: operations["createProject"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One project */
        get: operations["getProject"];
        put?: never;
        post?: never;
        /** Delete a project (owner/admin); also served by a locked project */
        delete: operations["deleteProject"];
        options?: never;
        head?: never;
        /** Rename or describe a project (owner/admin) */
        patch: operations["updateProject"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/avatar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the project avatar (PNG, JPEG or WebP up to 5 MiB; stored as 256×256 WebP) */
        post: operations["uploadProjectAvatar"];
        /** Remove the project avatar */
        delete: operations["deleteProjectAvatar"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/access": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's access mode and owner */
        get: operations["getProjectAccess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a project's access mode or owner (organization owner/admin or the project's owner) */
        patch: operations["updateProjectAccess"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/access/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A project's allowlist: granted and revoked members (organization owner/admin or the project's owner) */
        get: operations["listProjectAccessMembers"];
        put?: never;
        /** Grant a member of the organization access to a project (organization owner/admin or the project's owner) */
        post: operations["grantProjectAccess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/access/members/{userUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a member's access to a project: the row becomes revoked and outranks group grants (organization owner/admin or the project's owner) */
        delete: operations["revokeProjectAccess"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/access/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** User groups assigned to a project */
        get: operations["listProjectAccessGroups"];
        put?: never;
        /** Assign a user group to a project, also a public one (dormant until private) (organization owner/admin or the project's owner) */
        post: operations["assignProjectAccessGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/access/groups/{userGroupUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unassign a user group from a project, also the last one (organization owner/admin or the project's owner) */
        delete: operations["unassignProjectAccessGroup"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/suites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The suite tree, depth-first in position order */
        get: operations["listSuites"];
        put?: never;
        /** Create a suite, last among its siblings (owner/admin/member) */
        post: operations["createSuite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/suites/by-display-id/{displayId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One suite by its display ID (`<projectCode>-S<number>`) */
        get: operations["getSuiteByDisplayId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/suites/{suiteUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One suite */
        get: operations["getSuite"];
        put?: never;
        post?: never;
        /** Delete a suite; its child suites and cases move to its parent (owner/admin/member) */
        delete: operations["deleteSuite"];
        options?: never;
        head?: never;
        /** Rename, move or reorder a suite (owner/admin/member) */
        patch: operations["updateSuite"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/test-cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Active (or, with archived=true, archived) test cases by ULID ascending */
        get: operations["listTestCases"];
        put?: never;
        /** Create a test case (owner/admin/member) */
        post: operations["createTestCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/test-cases/merge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fold duplicate cases into one: their results, run cases and plan selections move to the target; they are archived */
        post: operations["mergeTestCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/test-cases/archived": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Archived test cases, most recently archived first */
        get: operations["listArchivedTestCases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/test-cases/by-display-id/{displayId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A test case by display ID (<projectCode>-<number>) */
        get: operations["getTestCaseByDisplayId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One test case */
        get: operations["getTestCase"];
        put?: never;
        post?: never;
        /** Delete a test case with its steps, attachments, values and comments */
        delete: operations["deleteTestCase"];
        options?: never;
        head?: never;
        /** Update scalars, steps and custom field values at once (one audit event) */
        patch: operations["updateTestCase"];
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/steps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the steps of a test case (no audit event of its own) */
        put: operations["replaceTestCaseSteps"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Archive a test case (archived cases are not live); archiving again changes nothing */
        post: operations["archiveTestCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/restore": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore an archived test case; restoring an active one changes nothing */
        post: operations["restoreTestCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/test-case-imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import test cases from CSV (the project export columns) or a TestRail XML export; dryRun=true validates only and answers 200 */
        post: operations["importTestCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/flaky-tests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cases whose recent results flip between passed and failed, or were flagged flaky, most flips first */
        get: operations["listFlakyTests"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Results, pass rate, executed cases and runs per day or week, narrowed by planUlid, milestoneId and runUlids */
        get: operations["getTrendReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/burn-up": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The progress counts of the runs at the end of each day or week, narrowed by planUlid, milestoneId and runUlids */
        get: operations["getBurnUpReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/failing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cases by failures over the last days or results, narrowed by planUlid, milestoneId and runUlids */
        get: operations["getFailingReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/slowest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cases by the 95th percentile of their elapsed time over the last days or results, narrowed by planUlid, milestoneId and runUlids */
        get: operations["getSlowestReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Cases never executed, not executed since a date, and without an automation key, by suite, narrowed by planUlid, milestoneId and runUlids */
        get: operations["getCoverageReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/reports/defects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Defects opened and resolved per day or week, and open at the end of each, narrowed by planUlid, milestoneId and runUlids (defects linked to their results) */
        get: operations["getDefectReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/step-attachments:stage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stage step attachments (up to 10 `file` parts of at most 10 MiB); list their keys in a step's attachments to commit them */
        post: operations["stageStepAttachments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/step-attachments/{attachmentUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download one committed step attachment */
        get: operations["downloadStepAttachment"];
        put?: never;
        post?: never;
        /** Remove one committed step attachment */
        delete: operations["deleteStepAttachment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Comments of a test case: pinned first, then oldest first; replies carry parentUlid */
        get: operations["listTestCaseComments"];
        put?: never;
        /** Comment on a test case, or reply to one of its comments */
        post: operations["createTestCaseComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/comments/{commentUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a comment and its replies (its author, an owner or an admin) */
        delete: operations["deleteTestCaseComment"];
        options?: never;
        head?: never;
        /** Edit a comment (its author only) */
        patch: operations["updateTestCaseComment"];
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/comments/{commentUlid}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pin a top-level comment (already pinned: 200, no event; a reply: 422) */
        post: operations["pinTestCaseComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/comments/{commentUlid}/unpin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unpin a top-level comment (not pinned: 200, no event; a reply: 422) */
        post: operations["unpinTestCaseComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/comments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Comments of a defect: pinned first, then oldest first; replies carry parentUlid */
        get: operations["listDefectComments"];
        put?: never;
        /** Comment on a defect, or reply to one of its comments */
        post: operations["createDefectComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/comments/{commentUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a comment and its replies (its author, an owner or an admin) */
        delete: operations["deleteDefectComment"];
        options?: never;
        head?: never;
        /** Edit a comment (its author only) */
        patch: operations["updateDefectComment"];
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/comments/{commentUlid}/pin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pin a top-level comment (already pinned: 200, no event; a reply: 422) */
        post: operations["pinDefectComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/comments/{commentUlid}/unpin": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unpin a top-level comment (not pinned: 200, no event; a reply: 422) */
        post: operations["unpinDefectComment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Custom field definitions of the organization (any member) */
        get: operations["listCustomFields"];
        put?: never;
        /** Create a custom field (owner/admin) */
        post: operations["createCustomField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/custom-fields/{fieldUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One custom field definition (any member) */
        get: operations["getCustomField"];
        put?: never;
        post?: never;
        /** Delete a custom field without values (owner/admin); system fields cannot be deleted */
        delete: operations["deleteCustomField"];
        options?: never;
        head?: never;
        /** Update a custom field and its options (owner/admin) */
        patch: operations["updateCustomField"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/custom-fields/{fieldUlid}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Restore a system field to its seed state (owner/admin) */
        post: operations["resetCustomField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/custom-field-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the custom field values of a test case (no audit event of its own) */
        put: operations["replaceTestCaseCustomFieldValues"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/test-cases/{caseUlid}/custom-field-values/{fieldUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set one custom field value of a test case */
        patch: operations["setTestCaseCustomFieldValue"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/milestones": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live milestones of a project, oldest first */
        get: operations["listMilestones"];
        put?: never;
        /** Create a milestone */
        post: operations["createMilestone"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/milestones/{milestoneUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One live milestone */
        get: operations["getMilestone"];
        put?: never;
        post?: never;
        /** Delete a milestone (soft delete: it is no longer live) */
        delete: operations["deleteMilestone"];
        options?: never;
        head?: never;
        /** Rename, describe, reschedule or complete a milestone */
        patch: operations["updateMilestone"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live environments of a project, oldest first */
        get: operations["listEnvironments"];
        put?: never;
        /** Create an environment; the slug is derived from the name when absent and unique among live environments */
        post: operations["createEnvironment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/environments/{environmentUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One live environment */
        get: operations["getEnvironment"];
        put?: never;
        post?: never;
        /** Delete an environment (soft delete; its slug becomes free) */
        delete: operations["deleteEnvironment"];
        options?: never;
        head?: never;
        /** Rename an environment or change its slug */
        patch: operations["updateEnvironment"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/configuration-groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live configuration groups of a project (by position, then ULID) with their live values */
        get: operations["listConfigurationGroups"];
        put?: never;
        /** Create a configuration group (name unique among live groups of the project) */
        post: operations["createConfigurationGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configuration-groups/{groupUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One live configuration group with its live values */
        get: operations["getConfigurationGroup"];
        put?: never;
        post?: never;
        /** Delete a configuration group and its values (soft delete) */
        delete: operations["deleteConfigurationGroup"];
        options?: never;
        head?: never;
        /** Rename or move a configuration group */
        patch: operations["updateConfigurationGroup"];
        trace?: never;
    };
    "/api/v1/configuration-groups/{groupUlid}/values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add a value after the last one (name unique among live values of the group) */
        post: operations["createConfiguration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/configurations/{configurationUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a configuration value (soft); `?purge=true` hard-deletes it (owner/admin) */
        delete: operations["deleteConfiguration"];
        options?: never;
        head?: never;
        /** Rename or move a configuration value */
        patch: operations["updateConfiguration"];
        trace?: never;
    };
    "/api/v1/projects/{projectId}/defects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Defects of a project, newest first */
        get: operations["listDefects"];
        put?: never;
        /** Report a defect, optionally linked to result attempts */
        post: operations["createDefect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One defect */
        get: operations["getDefect"];
        put?: never;
        post?: never;
        /** Delete a defect with its links, custom field values and comments */
        delete: operations["deleteDefect"];
        options?: never;
        head?: never;
        /** Edit, reassign or move a defect to any status (a viewer gets 403 before any write) */
        patch: operations["updateDefect"];
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The result attempts a defect is linked to, most recently executed first */
        get: operations["listDefectLinks"];
        put?: never;
        /** Link a result attempt of the same project (201; already linked: 200, no event) */
        post: operations["linkDefectResult"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/defects/{defectUlid}/links/{resultUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Unlink a result attempt (not linked: 404) */
        delete: operations["unlinkDefectResult"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live plans of a project by planNumber (without progress) */
        get: operations["listPlans"];
        put?: never;
        /** Create a plan */
        post: operations["createPlan"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One live plan with its progress */
        get: operations["getPlan"];
        put?: never;
        post?: never;
        /** Delete a plan (soft delete: its name is free again, its runs stay) */
        delete: operations["deletePlan"];
        options?: never;
        head?: never;
        /** Rename, describe, change the status or the milestone of a plan */
        patch: operations["updatePlan"];
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plan's case selection by position */
        get: operations["listPlanCases"];
        /** Replace the plan's case selection and its assignees */
        put: operations["replacePlanCases"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/cases/{planCaseUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Assign a case of the selection (runs already generated are not changed) */
        patch: operations["assignPlanCase"];
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/configurations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plan's configuration selection */
        get: operations["listPlanConfigurations"];
        /** Replace the plan's configuration selection */
        put: operations["replacePlanConfigurations"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/excluded-combinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the comboKeys left out of the plan's combinations */
        put: operations["replacePlanExcludedCombinations"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/combinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The combinations of the configuration selection, one value per group */
        get: operations["listPlanCombinations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs generated from the plan, most recent first */
        get: operations["listPlanRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Runs of a project, most recent first, with filters */
        get: operations["listRuns"];
        put?: never;
        /** Create a run from cases or from a plan (one request, one run) */
        post: operations["createRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/runs/environments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deprecated: the distinct legacy free-text environments of the runs, ascending */
        get: operations["listLegacyRunEnvironments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run with its custom field values */
        get: operations["getRun"];
        put?: never;
        post?: never;
        /** Delete a run with its cases and results (owner/admin); its audit events stay */
        delete: operations["deleteRun"];
        options?: never;
        head?: never;
        /** Rename, describe, reassign, relink environment, milestone or configurations of a run */
        patch: operations["updateRun"];
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Close an open run early (untested cases may remain) */
        post: operations["closeRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/abort": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Abort an open run: closed with abortedAt, frozen from then on */
        post: operations["abortRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/runs/{runUlid}/clone": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new open run from the case snapshots of a run, optionally filtered by status */
        post: operations["cloneRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/custom-field-values": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Replace the custom field values of a run */
        put: operations["replaceRunCustomFieldValues"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A page of the run's cases in position order */
        get: operations["listRunCases"];
        put?: never;
        /** Add live cases of the project to a run (cases already in it are skipped) */
        post: operations["addRunCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One run case with the defects linked to its results and its results' attachments */
        get: operations["getRunCase"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Mark, assign or time a run case (a changed status appends a result) */
        patch: operations["markRunCase"];
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}/open": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a run case: an unassigned case is assigned to the caller */
        post: operations["openRunCase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}/steps/{stepUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Mark one step; the case takes the aggregate of its steps' statuses */
        patch: operations["markRunCaseStep"];
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/results": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The append-only results history of the run, oldest first */
        get: operations["listRunResults"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}/results/{resultUlid}/attachments:stage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stage files for a result (up to 10 `file` parts of at most 10 MiB); commit their keys with POST …/attachments */
        post: operations["stageResultAttachments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}/results/{resultUlid}/attachments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Attach staged uploads to a result, optionally at one of the run case steps */
        post: operations["commitResultAttachments"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/{runCaseUlid}/results/{resultUlid}/attachments/{attachmentUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Download one result attachment */
        get: operations["downloadResultAttachment"];
        put?: never;
        post?: never;
        /** Remove one result attachment */
        delete: operations["deleteResultAttachment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/bulk-mark": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark cases with one outcome (atomic; one result per case whose status changes) */
        post: operations["bulkMarkRunCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/bulk-assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assign cases to a member, or unassign them (atomic) */
        post: operations["bulkAssignRunCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/bulk-retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reset cases and their steps to untested (atomic; no result is appended) */
        post: operations["bulkRetryRunCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/cases/bulk-remove": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove cases from a run (atomic; their results stay in the history) */
        post: operations["bulkRemoveRunCases"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/results/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit results in bulk: every entry appends one result (all or nothing) */
        post: operations["submitRunResults"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/reconcile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Bring a plan-generated run in line with the plan's current selection and assignees */
        post: operations["reconcileRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's progress as it changes (Server-Sent Events) */
        get: operations["streamRunProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/plans/{planUlid}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The plan's progress as its runs change (Server-Sent Events) */
        get: operations["streamPlanProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/share-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The run's share links, oldest first, without their tokens */
        get: operations["listShareLinks"];
        put?: never;
        /** Share a run by a public link; the answer is the only one that shows its token (result execute permission) */
        post: operations["createShareLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/share-links/{shareLinkUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a share link: it stops working at once (result execute permission) */
        delete: operations["revokeShareLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/public/runs/{token}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared run: its name, state, counts, pass rate, configurations, environment and cases */
        get: operations["getSharedRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/public/runs/{token}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A shared run's progress as it changes (Server-Sent Events) */
        get: operations["streamSharedRunProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/result-imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a test runner report (JUnit XML or CTRF JSON, optionally gzip-compressed) into a new or open run */
        post: operations["importResults"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/run-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Run settings in force for a project, each with its source (project, organization, default) */
        get: operations["getProjectRunSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set or remove (null) project overrides of run settings (owner/admin or the project's owner) */
        patch: operations["updateProjectRunSettings"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/run-settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organization-wide run settings, each with its source (organization, default) */
        get: operations["getOrganizationRunSettings"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set or remove (null) organization-wide run settings (owner/admin) */
        patch: operations["updateOrganizationRunSettings"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit log of the organization, newest first (owner/admin) */
        get: operations["listOrganizationAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/{runUlid}/audit-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit log of one run, newest first (any member who can read the run) */
        get: operations["listRunAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/audit-events/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit events of a window as CSV, oldest first (owner/admin with the audit export entitlement) */
        get: operations["exportAuditEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/projects/{projectId}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every live test case of the project with suites, steps, tags and custom field values (CSV or JSON) */
        get: operations["exportProject"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/api-result-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Machine-authored results of this calendar month against the monthly ceiling */
        get: operations["getApiResultUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/seat-usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Seats in use (members and pending invitations, never viewers) against the seat limit */
        get: operations["getSeatUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's seat commitment, period and scheduled change (status none before any checkout) */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/subscription/checkout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a monthly period committing that many seats at once (owner/admin); 409 when a subscription is active */
        post: operations["checkoutSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/subscription/seats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change the committed seats: an increase now, a decrease at period end unless at is now (owner/admin) */
        patch: operations["changeSubscriptionSeats"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/subscription/pending-change": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Discard the seat change scheduled for period end (owner/admin); 409 when nothing is scheduled */
        delete: operations["cancelSubscriptionPendingChange"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of the organization by join time */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/members/{userUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (owner, admin), or leave the organization (yourself, with a session) */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        /** Change a member's role (owner, admin; only owners change or appoint owners) */
        patch: operations["updateMember"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Invitations of the organization, newest first (owner, admin) */
        get: operations["listInvitations"];
        put?: never;
        /** Invite a person by email (owner, admin); the mail is sent after commit */
        post: operations["createInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/invitations/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invite up to 50 addresses with one role (owner, admin) */
        post: operations["createInvitationsInBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/invitations/{invitationUlid}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a pending invitation again with a new token and a renewed expiry (owner, admin) */
        post: operations["resendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/invitations/{invitationUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invitation (owner, admin) */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Join the organization an invitation to the session's email address is for */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** User groups of the organization, oldest first */
        get: operations["listUserGroups"];
        put?: never;
        /** Create a user group, optionally seeded with members and projects, all or nothing (owner/admin) */
        post: operations["createUserGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups/{userGroupUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One user group */
        get: operations["getUserGroup"];
        put?: never;
        post?: never;
        /** Delete a user group with its memberships and project assignments (owner/admin) */
        delete: operations["deleteUserGroup"];
        options?: never;
        head?: never;
        /** Rename or describe a user group (owner/admin) */
        patch: operations["updateUserGroup"];
        trace?: never;
    };
    "/api/v1/groups/{userGroupUlid}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of a user group, in the order they were added */
        get: operations["listUserGroupMembers"];
        put?: never;
        /** Add organization members to a user group, all or nothing (owner/admin) */
        post: operations["addUserGroupMembers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups/{userGroupUlid}/members/{userUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member from a user group (owner/admin) */
        delete: operations["removeUserGroupMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/groups/{userGroupUlid}/projects": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Projects the group is assigned to, leaving out private ones the caller cannot see */
        get: operations["listUserGroupProjects"];
        put?: never;
        /** Assign a user group to projects, all or nothing; each needs the right to change that project's access */
        post: operations["assignUserGroupProjects"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhooks of the organization, oldest first (owner/admin) */
        get: operations["listWebhooks"];
        put?: never;
        /** Subscribe a receiver to audit events; the answer is the only one that shows its secret (owner/admin) */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/webhooks/{webhookUlid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook (owner/admin) */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /** Delete a webhook with its deliveries (owner/admin) */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /** Change a webhook; reactivating it resets its failure count (owner/admin) */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/webhooks/{webhookUlid}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret; the previous one keeps signing next to it for 24 hours (owner/admin) */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/webhooks/{webhookUlid}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Deliveries of a webhook, newest first (owner/admin) */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orgs/{orgUlid}/webhooks/{webhookUlid}/deliveries/{deliveryUlid}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queue a delivery's event again as a new delivery (owner/admin) */
        post: operations["redeliverWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            error: {
                /**
                 * @description The contract code; `details.code` may refine it
                 * @example validation_failed
                 * @enum {string}
                 */
                code: "validation_failed" | "not_found" | "conflict" | "last_owner" | "unauthorized" | "forbidden" | "email_not_verified" | "email_send_failed" | "challenge_failed" | "too_many_requests" | "unsupported_media_type" | "internal_error" | "immutable_field" | "system_field" | "system_field_readonly" | "field_has_values" | "not_system_field" | "storage_quota_exceeded" | "staging_already_committed" | "file_too_large" | "too_many_cases" | "too_many_attachments" | "too_many_suites" | "parse_failed" | "empty_import" | "organization_suspended" | "seat_limit_exceeded" | "project_limit_exceeded" | "api_result_limit_exceeded" | "email_recipient_suppressed" | "billing_provider_unavailable" | "organization_plan_required" | "run_case_assignee_locked" | "project_locked" | "service_unavailable";
                message: string;
                details?: unknown;
            };
        };
        Liveness: {
            /** @enum {string} */
            status: "ok";
            /**
             * @description The version of tcms serving the request
             * @example 0.1.0
             */
            version: string;
        };
        /** @description status ready with 200; unavailable with 503 while a dependency is down */
        Readiness: {
            /** @enum {string} */
            status: "ready" | "unavailable";
            checks: {
                /** @enum {string} */
                database: "up" | "down";
            };
        };
        SignupResponse: {
            user: components["schemas"]["User"];
            organizations: components["schemas"]["OrganizationMembership"][];
            organization: components["schemas"]["Organization"];
        };
        User: {
            ulid: string;
            email: string;
            firstName: string;
            lastName: string;
            displayName: string;
            avatarKey: string | null;
            /** @description The address is proven: by the verification mail's token, by signing up with an invitation token, or by resetting the password */
            emailVerified: boolean;
        };
        OrganizationMembership: {
            ulid: string;
            name: string;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        Organization: {
            ulid: string;
            name: string;
            plan: string;
            createdAt: number;
        };
        /**
         * @example {
         *       "email": "ada@example.com",
         *       "password": "correct horse battery staple",
         *       "firstName": "Ada",
         *       "lastName": "Lovelace",
         *       "organizationName": "Analytical Engines"
         *     }
         */
        SignupRequest: {
            /**
             * Format: email
             * @example ada@example.com
             */
            email: string;
            password: string;
            firstName: string;
            lastName: string;
            organizationName?: string;
            /** @description The token of an invitation to this email: the new user joins the inviting organization instead of getting one of their own */
            invitationToken?: string;
            /** @description The bot check's answer (a siteverify-compatible widget's token); required when the service is configured with a verifier */
            challengeToken?: string;
        };
        VerifiedUser: {
            user: components["schemas"]["User"];
        };
        VerifyEmailRequest: {
            token: string;
        };
        Session: {
            user: components["schemas"]["User"];
            organizations: components["schemas"]["OrganizationMembership"][];
        };
        LoginRequest: {
            /**
             * Format: email
             * @example ada@example.com
             */
            email: string;
            password: string;
        };
        PasswordResetRequest: {
            /**
             * Format: email
             * @example ada@example.com
             */
            email: string;
        };
        /**
         * @example {
         *       "token": "q9J1yX0rT3mD4fW8nB6vK2cH7sL5aE0uZ1pG9oR4iY8",
         *       "password": "a brand new passphrase"
         *     }
         */
        ConfirmPasswordResetRequest: {
            /** @description The token of the password reset mail */
            token: string;
            password: string;
        };
        CreateOrganizationRequest: {
            name: string;
        };
        ApiToken: {
            ulid: string;
            name: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            prefix: string;
            createdAt: number;
            lastUsedAt: number | null;
            expiresAt: number | null;
        };
        CreatedApiToken: {
            ulid: string;
            name: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            prefix: string;
            createdAt: number;
            expiresAt: number | null;
            /** @description The secret; shown only in this response */
            token: string;
        };
        /**
         * @example {
         *       "name": "CI pipeline",
         *       "role": "member",
         *       "expiresAt": 1893456000000
         *     }
         */
        CreateApiTokenRequest: {
            name: string;
            /** @enum {string} */
            role?: "admin" | "member" | "viewer";
            /**
             * @description Epoch ms; must be in the future
             * @example 1893456000000
             */
            expiresAt?: number;
        };
        OAuthGrant: {
            ulid: string;
            clientUlid: string;
            clientName: string;
            /** @description Epoch ms of the consent */
            createdAt: number;
        };
        Project: {
            ulid: string;
            name: string;
            id: string;
            description: string | null;
            avatarKey: string | null;
            avatarVersion: number;
            lockedAt: number | null;
            createdAt: number;
            updatedAt: number;
        };
        CreateProjectRequest: {
            name: string;
            /** @example WEB */
            id: string;
            description?: string | null;
        };
        ProjectPage: {
            items: components["schemas"]["ProjectListItem"][];
            page: number;
            pageSize: number;
            total: number;
        };
        /** @description stats, team and teamCount only with include=stats */
        ProjectListItem: {
            ulid: string;
            name: string;
            id: string;
            description: string | null;
            avatarKey: string | null;
            avatarVersion: number;
            lockedAt: number | null;
            createdAt: number;
            updatedAt: number;
            stats?: {
                cases: number;
                runs: number;
                runsInProgress: number;
                defectsUnresolved: number;
                milestones: number;
            };
            team?: {
                userUlid: string;
                firstName: string;
                lastName: string;
                avatarKey: string | null;
                avatarVersion: number;
            }[];
            teamCount?: number;
        };
        /** @description At least one of name, description; `id` answers 422 immutable_field */
        UpdateProjectRequest: {
            name?: string;
            description?: string | null;
            id?: unknown;
        };
        ProjectAvatar: {
            avatarKey: string | null;
            avatarVersion: number;
        };
        ProjectAccess: {
            /** @enum {string} */
            mode: "public" | "private";
            /** @description The project's owner (a member of the organization) or null */
            ownerUlid: string | null;
        };
        /**
         * @description At least one of mode, ownerUlid
         * @example {
         *       "mode": "private"
         *     }
         */
        UpdateProjectAccessRequest: {
            /** @enum {string} */
            mode?: "public" | "private";
            /**
             * @description A member of the organization, or null for none
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            ownerUlid?: string | null;
        };
        ProjectAccessMemberList: {
            items: components["schemas"]["ProjectAccessMember"][];
        };
        ProjectAccessMember: {
            userUlid: string;
            displayName: string;
            email: string;
            /** @enum {string} */
            state: "granted" | "revoked";
            updatedAt: number;
        };
        /**
         * @example {
         *       "userUlid": "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D"
         *     }
         */
        GrantProjectAccessRequest: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            userUlid: string;
        };
        ProjectAccessGroupList: {
            items: components["schemas"]["ProjectAccessGroup"][];
        };
        ProjectAccessGroup: {
            userGroupUlid: string;
            name: string;
            memberCount: number;
        };
        /**
         * @example {
         *       "userGroupUlid": "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D"
         *     }
         */
        AssignProjectAccessGroupRequest: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            userGroupUlid: string;
        };
        Suite: {
            ulid: string;
            projectUlid: string;
            suiteNumber: number;
            displayId: string;
            name: string;
            description: string | null;
            parentUlid: string | null;
            position: number;
            createdAt: number;
            updatedAt: number;
        };
        CreateSuiteRequest: {
            name: string;
            /**
             * @description The parent suite of the same project; null for a root suite
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            parentUlid?: string | null;
            description?: string | null;
        };
        /** @description The suite tree depth-first, siblings in position order */
        SuitePage: {
            items: components["schemas"]["Suite"][];
            nextCursor: string | null;
        };
        /** @description At least one of name, description, parentUlid, position */
        UpdateSuiteRequest: {
            name?: string;
            description?: string | null;
            /**
             * @description The parent suite of the same project; null for a root suite
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            parentUlid?: string | null;
            /** @description Index among the (new) siblings, from 0; past the end places it last */
            position?: number;
        };
        TestCase: {
            ulid: string;
            projectUlid: string;
            caseNumber: number;
            displayId: string;
            title: string;
            description: string | null;
            suiteUlid: string | null;
            milestoneUlid: string | null;
            tags: string[];
            automationKey: string | null;
            steps: components["schemas"]["TestCaseStep"][];
            customFieldValues: components["schemas"]["CustomFieldValue"][];
            archivedAt: number | null;
            createdAt: number;
            updatedAt: number;
        };
        TestCaseStep: {
            ulid: string;
            position: number;
            action: string;
            expectedResult: string | null;
            attachments: components["schemas"]["StepAttachment"][];
        };
        StepAttachment: {
            ulid: string;
            fileName: string;
            contentType: string;
            sizeBytes: number;
            createdAt: number;
        };
        CustomFieldValue: {
            fieldUlid: string;
            /** @description The stored value, or the definition's defaultValue, or null */
            value?: unknown;
            systemKey: string | null;
            optionName: string | null;
        };
        CreateTestCaseRequest: {
            title: string;
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            suiteUlid?: string | null;
            description?: string | null;
            steps?: {
                position?: number;
                action: string;
                expectedResult?: string | null;
                attachments?: components["schemas"]["StepAttachmentRef"][];
            }[];
            /** @description Up to 50 tags, each trimmed to 1..100 characters; duplicates are dropped */
            tags?: string[];
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            milestoneUlid?: string | null;
            /** @description 1..1000 characters, matched exactly; no whitespace at either end, no control characters */
            automationKey?: string | null;
            customFieldValues?: components["schemas"]["CustomFieldValueInput"][];
        };
        /** @description `{ ulid }` keeps a committed attachment; `{ key }` commits a staged upload */
        StepAttachmentRef: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            ulid: string;
        } | {
            /** @example staging/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D/01JD3Z8Q4V5W6X7Y8Z9A0B1C2E */
            key: string;
        };
        CustomFieldValueInput: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            fieldUlid: string;
            /** @description select_single/radio: option ULID; select_multi: array of distinct option ULIDs; checkbox: boolean (or "true"/"false"); paragraph: string (max 10000); user_picker: member user ULID. Null or empty clears. */
            value?: unknown;
        };
        MergeTestCasesRequest: {
            /**
             * @description The case that stays and receives the history
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2E
             */
            targetUlid: string;
            /** @description 1..100 distinct cases folded into the target and archived */
            sourceUlids: string[];
        };
        TestCaseCursorPage: {
            items: components["schemas"]["TestCase"][];
            nextCursor: string | null;
        };
        TestCasePage: {
            items: components["schemas"]["TestCase"][];
            page: number;
            pageSize: number;
            total: number;
        };
        UpdateTestCaseRequest: {
            patch?: {
                title?: string;
                description?: string | null;
                /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
                suiteUlid?: string | null;
                /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
                milestoneUlid?: string | null;
                /** @description Up to 50 tags, each trimmed to 1..100 characters; duplicates are dropped */
                tags?: string[];
                /** @description 1..1000 characters, matched exactly; no whitespace at either end, no control characters */
                automationKey?: string | null;
            };
            steps?: components["schemas"]["TestCaseStepInput"][];
            customFieldValues?: components["schemas"]["CustomFieldValueInput"][];
        };
        TestCaseStepInput: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            ulid?: string;
            position?: number;
            action: string;
            expectedResult?: string | null;
            attachments?: components["schemas"]["StepAttachmentRef"][];
        };
        PutTestCaseStepsRequest: {
            steps: components["schemas"]["TestCaseStepInput"][];
        };
        TestCaseImport: {
            createdSuites: number;
            createdCases: number;
            /** @description Existing cases named by a display_id (whether or not anything changed) */
            updatedCases: number;
            warnings: components["schemas"]["TestCaseImportWarning"][];
        };
        TestCaseImportWarning: {
            /** @description CSV: the record (the header is row 1); TestRail XML: the line of the case */
            row: number;
            message: string;
        };
        FlakyTestPage: {
            items: components["schemas"]["FlakyTest"][];
            page: number;
            pageSize: number;
            total: number;
        };
        FlakyTest: {
            caseUlid: string;
            displayId: string;
            title: string;
            /** @description Changes between passed and failed from one result to the next in the window */
            flips: number;
            /** @description flips / (resultsInWindow - 1): 0 never flips, 1 flips every time */
            flakyRate: number;
            resultsInWindow: number;
            /** @description Results of the window flagged flaky (failed, then passed on retry) */
            flaggedFlaky: number;
            /** @description The 10 most recent results of the window, most recent first */
            lastResults: {
                resultUlid: string;
                runUlid: string;
                /** @enum {string} */
                status: "passed" | "failed";
                executedAt: number;
                flaky: boolean;
            }[];
            /** @description The runs of the results of the window, the most recently executed first */
            runs: {
                ulid: string;
                name: string;
            }[];
        };
        TrendReport: {
            from: number;
            to: number;
            /** @enum {string} */
            bucket: "day" | "week";
            timeZone: string;
            buckets: components["schemas"]["TrendBucket"][];
        };
        /** @description The results (attempts) executed in one bucket, and the runs opened and closed in it */
        TrendBucket: {
            /** @description Epoch ms of the start of the day or week in the time zone (the first one may start before `from`) */
            start: number;
            passed: number;
            failed: number;
            blocked: number;
            skipped: number;
            /** @description Results that set a case back to untested (or to be retested) */
            untested: number;
            /** @description passed / (passed + failed + blocked); null when that is 0 */
            passRate: number | null;
            /** @description Distinct cases with a passed, failed, blocked or skipped result */
            executedCases: number;
            /** @description Results written by API tokens or imports */
            automated: number;
            /** @description Results written by people */
            manual: number;
            runsOpened: number;
            runsClosed: number;
        };
        BurnUpReport: {
            from: number;
            to: number;
            /** @enum {string} */
            bucket: "day" | "week";
            timeZone: string;
            points: components["schemas"]["BurnUpPoint"][];
        };
        /** @description The progress counts of the runs' cases at the end of one bucket */
        BurnUpPoint: {
            /** @description Epoch ms of the start of the day or week in the time zone (the first one may start before `from`) */
            start: number;
            /** @description Epoch ms of the bucket end (at most `to`): the counts are as they stood then */
            end: number;
            totalRuns: number;
            closedRuns: number;
            passed: number;
            failed: number;
            blocked: number;
            skipped: number;
            untested: number;
        };
        CaseResultStatsPage: {
            items: components["schemas"]["CaseResultStats"][];
            page: number;
            pageSize: number;
            total: number;
        };
        CaseResultStats: {
            caseUlid: string;
            displayId: string;
            title: string;
            /** @description The names of the case's suite and its parents, root first */
            suitePath: string[];
            /** @description Passed, failed, blocked and skipped results looked at */
            results: number;
            /** @description Failed results (each failed attempt counts) */
            failures: number;
            /** @description failures / (passed + failed + blocked); null when that is 0 */
            failureRate: number | null;
            /** @description The comment of the latest failed result, clipped to 500 characters */
            lastFailureMessage: string | null;
            /** @description Median elapsedMs of the results that have one */
            p50ElapsedMs: number | null;
            /** @description 95th percentile of elapsedMs of the results that have one */
            p95ElapsedMs: number | null;
        };
        /** @description Suites with cases, in tree order (cases in no suite last), a page of them */
        CoverageReport: {
            items: components["schemas"]["CoverageSuite"][];
            page: number;
            pageSize: number;
            total: number;
            since: number;
            totals: components["schemas"]["CoverageCounts"];
        };
        CoverageSuite: {
            /** @description null for the cases in no suite */
            suite: {
                ulid: string;
                displayId: string;
                path: string[];
            } | null;
            /** @description Cases not archived */
            cases: number;
            /** @description Cases without a passed, failed, blocked or skipped result */
            neverExecuted: number;
            /** @description Cases without such a result since `since` (those never executed included) */
            notExecutedSince: number;
            withoutAutomationKey: number;
        };
        CoverageCounts: {
            /** @description Cases not archived */
            cases: number;
            /** @description Cases without a passed, failed, blocked or skipped result */
            neverExecuted: number;
            /** @description Cases without such a result since `since` (those never executed included) */
            notExecutedSince: number;
            withoutAutomationKey: number;
        };
        DefectReport: {
            from: number;
            to: number;
            /** @enum {string} */
            bucket: "day" | "week";
            timeZone: string;
            buckets: components["schemas"]["DefectBucket"][];
        };
        DefectBucket: {
            /** @description Epoch ms of the start of the day or week in the time zone (the first one may start before `from`) */
            start: number;
            /** @description Defects created in the bucket */
            opened: number;
            /** @description Defects whose status went from open or in_progress to resolved or closed */
            resolved: number;
            /** @description Defects open or in progress at the bucket's end */
            open: number;
        };
        StagedAttachments: {
            items: components["schemas"]["StagedAttachment"][];
        };
        StagedAttachment: {
            key: string;
            fileName: string;
            contentType: string;
            sizeBytes: number;
        };
        /** @description Flat: pinned comments first (most recently pinned first), then every comment oldest first; replies carry parentUlid */
        CommentPage: {
            items: components["schemas"]["Comment"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Comment: {
            ulid: string;
            body: string;
            /** @description The top-level comment this one replies to; null for a top-level comment */
            parentUlid: string | null;
            pinnedAt: number | null;
            author: components["schemas"]["Author"];
            createdAt: number;
            updatedAt: number;
        };
        Author: {
            /** @enum {string} */
            kind: "user";
            ulid: string | null;
            displayName: string | null;
            avatarKey: string | null;
        } | {
            /** @enum {string} */
            kind: "api_token";
            ulid: string | null;
            name: string | null;
        };
        CreateCommentRequest: {
            body: string;
            /**
             * @description Reply to this comment; a reply to a reply joins the thread of its top-level comment
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            parentUlid?: string | null;
        };
        UpdateCommentRequest: {
            body: string;
        };
        CustomFieldPage: {
            items: components["schemas"]["CustomField"][];
            page: number;
            pageSize: number;
            total: number;
        };
        CustomField: {
            ulid: string;
            /** @enum {string} */
            entity: "test_case" | "test_run" | "defect";
            /** @enum {string} */
            group: "system" | "custom";
            systemKey: string | null;
            /** @enum {string} */
            valueType: "select_single" | "select_multi" | "radio" | "checkbox" | "paragraph" | "user_picker";
            title: string;
            /** @description Only with locales=all */
            titleI18n?: {
                en: string | null;
                es: string | null;
            };
            placeholder: string | null;
            /** @description Only with locales=all */
            placeholderI18n?: {
                en: string | null;
                es: string | null;
            };
            options: components["schemas"]["CustomFieldOption"][];
            isRequired: boolean;
            defaultValue?: unknown;
            allProjects: boolean;
            projectUlids: string[];
            position: number;
            createdAt: number;
            updatedAt: number;
        };
        CustomFieldOption: {
            ulid: string;
            name: string;
            /** @description Only with locales=all */
            nameI18n?: {
                en: string | null;
                es: string | null;
            };
            icon: string | null;
            color: string | null;
            position: number;
        };
        CustomFieldResponse: {
            field: components["schemas"]["CustomField"];
        };
        /** @description Give exactly one of title, titleI18n */
        CreateCustomFieldRequest: {
            /** @enum {string} */
            entity: "test_case" | "test_run" | "defect";
            /** @enum {string} */
            valueType: "select_single" | "select_multi" | "radio" | "checkbox" | "paragraph" | "user_picker";
            /** @description The English title (or give titleI18n) */
            title?: string;
            titleI18n?: {
                en: string;
                es?: string | null;
            };
            /** @description The English placeholder */
            placeholder?: string | null;
            placeholderI18n?: {
                en?: string | null;
                es?: string | null;
            };
            options?: components["schemas"]["CustomFieldOptionInput"][];
            isRequired?: boolean;
            /** @description A value valid for the field (see CustomFieldValueInput); null clears */
            defaultValue?: unknown;
            allProjects?: boolean;
            projectUlids?: string[];
        };
        CustomFieldOptionInput: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            ulid?: string;
            name?: string;
            nameI18n?: {
                en?: string;
                es?: string | null;
            };
            icon?: string | null;
            color?: string | null;
            position?: number;
        };
        /** @description At least one key. entity, valueType, group and systemKey cannot change (422 immutable_field). */
        UpdateCustomFieldRequest: {
            title?: string;
            titleI18n?: {
                en?: string;
                es?: string | null;
            };
            placeholder?: string | null;
            placeholderI18n?: {
                en?: string | null;
                es?: string | null;
            };
            options?: components["schemas"]["CustomFieldOptionInput"][];
            isRequired?: boolean;
            /** @description A value valid for the field (see CustomFieldValueInput); null clears */
            defaultValue?: unknown;
            allProjects?: boolean;
            projectUlids?: string[];
            entity?: unknown;
            valueType?: unknown;
            group?: unknown;
            systemKey?: unknown;
        };
        ResetCustomFieldRequest: Record<string, never>;
        CustomFieldValuesResponse: {
            customFieldValues: components["schemas"]["CustomFieldValue"][];
        };
        PutCustomFieldValuesRequest: {
            values: components["schemas"]["CustomFieldValueInput"][];
        };
        /** @description The new value; null or empty clears it */
        PatchCustomFieldValueRequest: {
            value?: unknown;
        };
        MilestonePage: {
            items: components["schemas"]["Milestone"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Milestone: {
            ulid: string;
            projectUlid: string;
            name: string;
            description: string | null;
            dueAt: number | null;
            completedAt: number | null;
            createdAt: number;
            updatedAt: number;
        };
        CreateMilestoneRequest: {
            name: string;
            description?: string | null;
            /** @example 1767225600000 */
            dueAt?: number | null;
        };
        /** @description At least one field; description, dueAt and completedAt take null to clear */
        UpdateMilestoneRequest: {
            name?: string;
            description?: string | null;
            /** @example 1767225600000 */
            dueAt?: number | null;
            /** @example 1767225600000 */
            completedAt?: number | null;
        };
        EnvironmentPage: {
            items: components["schemas"]["Environment"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Environment: {
            ulid: string;
            projectUlid: string;
            name: string;
            slug: string;
            createdAt: number;
            updatedAt: number;
        };
        CreateEnvironmentRequest: {
            name: string;
            /**
             * @description Derived from the name when absent
             * @example staging-eu
             */
            slug?: string;
        };
        /** @description Renaming keeps the slug; send `slug` to change it */
        UpdateEnvironmentRequest: {
            name?: string;
            /** @example staging-eu */
            slug?: string;
        };
        ConfigurationGroupPage: {
            items: components["schemas"]["ConfigurationGroup"][];
            page: number;
            pageSize: number;
            total: number;
        };
        ConfigurationGroup: {
            ulid: string;
            projectUlid: string;
            name: string;
            position: number;
            /** @description Live values by position, then ULID */
            values: components["schemas"]["Configuration"][];
            createdAt: number;
            updatedAt: number;
        };
        Configuration: {
            ulid: string;
            projectUlid: string;
            groupUlid: string;
            name: string;
            position: number;
            createdAt: number;
            updatedAt: number;
        };
        CreateConfigurationGroupRequest: {
            name: string;
            /** @description Sort key; appended after the last live group when absent */
            position?: number;
        };
        /** @description At least one field */
        UpdateConfigurationGroupRequest: {
            name?: string;
            position?: number;
        };
        CreateConfigurationRequest: {
            name: string;
        };
        /** @description At least one field */
        UpdateConfigurationRequest: {
            name?: string;
            position?: number;
        };
        /** @description Newest first (highest defectNumber first) */
        DefectPage: {
            items: components["schemas"]["Defect"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Defect: {
            ulid: string;
            projectUlid: string;
            /** @description Gapless per project, never reused */
            defectNumber: number;
            title: string;
            description: string | null;
            /** @enum {string} */
            status: "open" | "in_progress" | "resolved" | "closed";
            assigneeUlid: string | null;
            externalUrl: string | null;
            author: components["schemas"]["Author"];
            customFieldValues: components["schemas"]["CustomFieldValue"][];
            createdAt: number;
            updatedAt: number;
        };
        CreateDefectRequest: {
            title: string;
            description?: string | null;
            /**
             * @description Default open
             * @enum {string}
             */
            status?: "open" | "in_progress" | "resolved" | "closed";
            /**
             * @description A member of the organization; null leaves the defect unassigned
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid?: string | null;
            /**
             * Format: uri
             * @description An http(s) address in an outside tracker
             * @example https://tracker.example.com/browse/BUG-12
             */
            externalUrl?: string | null;
            /** @description Result attempts of runs of the same project to link at once */
            resultUlids?: string[];
            /** @description Values of defect custom fields visible in the project */
            customFieldValues?: components["schemas"]["CustomFieldValueInput"][];
        };
        /** @description At least one field; description, assigneeUlid and externalUrl take null to clear */
        UpdateDefectRequest: {
            title?: string;
            description?: string | null;
            /** @enum {string} */
            status?: "open" | "in_progress" | "resolved" | "closed";
            /**
             * @description A member of the organization; null leaves the defect unassigned
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid?: string | null;
            /**
             * Format: uri
             * @description An http(s) address in an outside tracker
             * @example https://tracker.example.com/browse/BUG-12
             */
            externalUrl?: string | null;
            customFieldValues?: components["schemas"]["CustomFieldValueInput"][];
        };
        /** @description Most recently executed first */
        DefectLinkedResultPage: {
            items: components["schemas"]["DefectLinkedResult"][];
            page: number;
            pageSize: number;
            total: number;
        };
        DefectLinkedResult: {
            resultUlid: string;
            runUlid: string;
            runTitle: string;
            /** @description Null once the case was removed from the run */
            runCaseUlid: string | null;
            /** @description Null once the case was removed from the run */
            caseDisplayId: string | null;
            status: string;
            executedAt: number;
            linkedAt: number;
        };
        LinkDefectResultRequest: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            resultUlid: string;
        };
        PlanPage: {
            items: components["schemas"]["Plan"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Plan: {
            ulid: string;
            projectUlid: string;
            planNumber: number;
            name: string;
            description: string | null;
            author: components["schemas"]["Author"];
            /** @description Live (not archived) cases in the selection */
            caseCount: number;
            /** @enum {string} */
            status: "draft" | "active" | "completed";
            milestoneUlid: string | null;
            milestone: {
                ulid: string;
                name: string;
            } | null;
            createdAt: number;
            updatedAt: number;
        };
        /** @description `ulid` and `planNumber` are assigned by the service and refused here */
        CreatePlanRequest: {
            name: string;
            description?: string | null;
            /**
             * @description Default draft
             * @enum {string}
             */
            status?: "draft" | "active" | "completed";
        };
        PlanDetail: {
            ulid: string;
            projectUlid: string;
            planNumber: number;
            name: string;
            description: string | null;
            author: components["schemas"]["Author"];
            /** @description Live (not archived) cases in the selection */
            caseCount: number;
            /** @enum {string} */
            status: "draft" | "active" | "completed";
            milestoneUlid: string | null;
            milestone: {
                ulid: string;
                name: string;
            } | null;
            createdAt: number;
            updatedAt: number;
            progress: components["schemas"]["PlanProgress"];
        };
        /** @description Computed at read time from the counters of the plan's runs */
        PlanProgress: {
            totalRuns: number;
            /** @description Runs in state closed (aborted ones included) */
            closedRuns: number;
            counts: components["schemas"]["StatusCounts"];
            /** @description One bucket per comboKey, by comboKey; empty without runs */
            byConfiguration: components["schemas"]["PlanProgressBucket"][];
        };
        /** @description Cases per status; a case to be retested counts as untested; the sum is total */
        StatusCounts: {
            passed: number;
            failed: number;
            blocked: number;
            skipped: number;
            untested: number;
        };
        PlanProgressBucket: {
            /** @description The runs' comboKey; '' for runs without configurations */
            comboKey: string;
            values: {
                groupName: string;
                valueName: string;
            }[];
            totalRuns: number;
            closedRuns: number;
            counts: components["schemas"]["StatusCounts"];
        };
        /** @description At least one field; description and milestoneId take null to clear */
        UpdatePlanRequest: {
            name?: string;
            description?: string | null;
            /** @enum {string} */
            status?: "draft" | "active" | "completed";
            /**
             * @description A live milestone of the plan's project; null clears
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            milestoneId?: string | null;
        };
        PlanCases: {
            items: components["schemas"]["PlanCase"][];
        };
        PlanCase: {
            /** @description The selection row */
            ulid: string;
            caseUlid: string;
            displayId: string;
            title: string;
            suiteName: string | null;
            position: number;
            assigneeUlid: string | null;
        };
        SetPlanCasesRequest: {
            /** @description Live cases of the project, in plan order; [] clears */
            caseUlids: string[];
            /** @description Assignee per listed case (entries for unlisted cases are ignored; a case without one is unassigned) */
            caseAssignees?: components["schemas"]["CaseAssignee"][];
        };
        CaseAssignee: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            caseUlid: string;
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            assigneeUlid: string | null;
        };
        AssignPlanCaseRequest: {
            /**
             * @description An organization member, or null to unassign
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid: string | null;
        };
        /** @description By group position, then value position */
        PlanConfigurations: {
            items: components["schemas"]["PlanConfiguration"][];
        };
        PlanConfiguration: {
            configurationUlid: string;
            groupUlid: string;
            groupName: string;
            valueName: string;
        };
        SetPlanConfigurationsRequest: {
            /** @description Live configuration values of the project; [] clears; at most 1000 combinations */
            configurationUlids: string[];
        };
        PlanExcludedCombinations: {
            /** @description comboKeys left out of the plan's combinations; [] clears; a key matching no combination is kept, inert */
            comboKeys: string[];
        };
        PlanCombinations: {
            items: components["schemas"]["PlanCombination"][];
            totalCount: number;
            includedCount: number;
        };
        PlanCombination: {
            comboKey: string;
            values: {
                groupUlid: string;
                groupName: string;
                configurationUlid: string;
                valueName: string;
            }[];
            included: boolean;
        };
        PlanRunPage: {
            items: components["schemas"]["RunResponse"][];
            page: number;
            pageSize: number;
            total: number;
        };
        RunResponse: {
            ulid: string;
            projectUlid: string;
            /** @description The plan the run was generated from */
            planUlid: string | null;
            name: string;
            description: string | null;
            /** @enum {string} */
            state: "open" | "closed";
            /**
             * @description Derived: in_progress while open; closed runs passed, or failed when a case failed or is blocked; aborted
             * @enum {string}
             */
            status: "in_progress" | "passed" | "failed" | "aborted";
            closedAt: number | null;
            abortedAt: number | null;
            defaultAssigneeUlid: string | null;
            milestoneUlid: string | null;
            milestone: {
                ulid: string;
                name: string;
            } | null;
            environmentId: string | null;
            environment: {
                ulid: string;
                name: string;
                slug: string;
            } | null;
            /** @description Deprecated legacy free-text environment */
            environmentName: string | null;
            /** @description The run's configuration value ULIDs sorted and joined by ':' ('' when none) */
            comboKey: string;
            configurations: {
                ulid: string;
                configurationUlid: string | null;
                groupName: string;
                valueName: string;
            }[];
            total: number;
            /** @description Cases with an outcome (total minus untested) */
            executed: number;
            /** @description Passed cases as a percentage of total, two decimals; 0 without cases */
            passRate: number;
            counts: components["schemas"]["StatusCounts"];
            firstResultAt: number | null;
            lastResultAt: number | null;
            totalDurationMs: number;
            author: components["schemas"]["Author"];
            createdAt: number;
            updatedAt: number;
        };
        CreateRunRequest: {
            name: string;
            description?: string | null;
            /**
             * @description Assignee of cases with no other; without it, the project's defaultAssigneeUserId setting
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            defaultAssigneeUlid?: string | null;
            /**
             * @description A live milestone of the project
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            milestoneId?: string | null;
            /**
             * @description A live environment of the project; wins over environment
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            environmentId?: string | null;
            /** @description Deprecated free text: finds or creates the environment with its slug when environmentId is absent */
            environment?: string;
            /** @description Live cases of the project, in run order; may be omitted with planUlid */
            caseUlids?: string[];
            /** @description Per-case assignees: the first source of a case assignee, before the plan and defaultAssigneeUlid */
            caseAssignees?: components["schemas"]["CaseAssignee"][];
            /**
             * @description A live plan of the project; without caseUlids its selection seeds the run
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            planUlid?: string;
            /** @description One value per configuration group; with planUlid, a combination of the plan's configuration selection */
            configurationUlids?: string[];
            customFieldValues?: components["schemas"]["CustomFieldValueInput"][];
        };
        RunPage: {
            items: components["schemas"]["RunResponse"][];
            page: number;
            pageSize: number;
            total: number;
        };
        /** @description Distinct non-empty legacy environment texts, ascending */
        LegacyRunEnvironments: {
            items: string[];
        };
        RunDetail: {
            ulid: string;
            projectUlid: string;
            /** @description The plan the run was generated from */
            planUlid: string | null;
            name: string;
            description: string | null;
            /** @enum {string} */
            state: "open" | "closed";
            /**
             * @description Derived: in_progress while open; closed runs passed, or failed when a case failed or is blocked; aborted
             * @enum {string}
             */
            status: "in_progress" | "passed" | "failed" | "aborted";
            closedAt: number | null;
            abortedAt: number | null;
            defaultAssigneeUlid: string | null;
            milestoneUlid: string | null;
            milestone: {
                ulid: string;
                name: string;
            } | null;
            environmentId: string | null;
            environment: {
                ulid: string;
                name: string;
                slug: string;
            } | null;
            /** @description Deprecated legacy free-text environment */
            environmentName: string | null;
            /** @description The run's configuration value ULIDs sorted and joined by ':' ('' when none) */
            comboKey: string;
            configurations: {
                ulid: string;
                configurationUlid: string | null;
                groupName: string;
                valueName: string;
            }[];
            total: number;
            /** @description Cases with an outcome (total minus untested) */
            executed: number;
            /** @description Passed cases as a percentage of total, two decimals; 0 without cases */
            passRate: number;
            counts: components["schemas"]["StatusCounts"];
            firstResultAt: number | null;
            lastResultAt: number | null;
            totalDurationMs: number;
            author: components["schemas"]["Author"];
            createdAt: number;
            updatedAt: number;
            customFieldValues: components["schemas"]["CustomFieldValue"][];
        };
        /** @description At least one field; free-text `environment` is not accepted */
        UpdateRunRequest: {
            name?: string;
            description?: string | null;
            /**
             * @description A member of the organization; null clears it
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            defaultAssigneeUlid?: string | null;
            /**
             * @description A live environment of the project; null unlinks
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            environmentId?: string | null;
            /**
             * @description A live milestone of the project; null clears it
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            milestoneId?: string | null;
            /** @description Live values of the project, at most one per group; replaces the snapshot and the comboKey */
            configurationUlids?: string[];
        };
        CloneRunRequest: {
            /** @description Name of the new run */
            title: string;
            /** @description Each case keeps its assignee (if still a member); default false */
            cloneAssignees?: boolean;
            /** @description Clone only the cases in these statuses (untested includes retested); omitted or empty: every case */
            statusFilter?: ("untested" | "retested" | "passed" | "failed" | "skipped" | "blocked")[];
        };
        RunCasePage: {
            items: components["schemas"]["RunCase"][];
            page: number;
            pageSize: number;
            total: number;
        };
        RunCase: {
            ulid: string;
            runUlid: string;
            /** @description Null once the test case was deleted; the snapshot stays */
            caseUlid: string | null;
            displayId: string;
            title: string;
            suiteName: string | null;
            position: number;
            /** @enum {string} */
            status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            assigneeUlid: string | null;
            elapsedMs: number | null;
            steps: {
                ulid: string;
                position: number;
                action: string;
                expectedResult: string | null;
                /** @enum {string} */
                status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
                actualResult: string | null;
            }[];
            lastResultAt: number | null;
            createdAt: number;
            updatedAt: number;
        };
        RunCaseDetail: {
            ulid: string;
            runUlid: string;
            /** @description Null once the test case was deleted; the snapshot stays */
            caseUlid: string | null;
            displayId: string;
            title: string;
            suiteName: string | null;
            position: number;
            /** @enum {string} */
            status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            assigneeUlid: string | null;
            elapsedMs: number | null;
            steps: {
                ulid: string;
                position: number;
                action: string;
                expectedResult: string | null;
                /** @enum {string} */
                status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
                actualResult: string | null;
            }[];
            lastResultAt: number | null;
            createdAt: number;
            updatedAt: number;
            /** @description Distinct defects linked through any result of the case, by defect number */
            linkedDefects: components["schemas"]["LinkedDefect"][];
            /** @description The files attached to the case's results, by result in history order, then in their order within it */
            attachments: components["schemas"]["ResultAttachment"][];
        };
        LinkedDefect: {
            ulid: string;
            defectNumber: number;
            title: string;
            /** @enum {string} */
            status: "open" | "in_progress" | "resolved" | "closed";
            assigneeUlid: string | null;
        };
        ResultAttachment: {
            ulid: string;
            resultUlid: string;
            /** @description The run case's step it was attached at; null when attached to the attempt as a whole */
            stepUlid: string | null;
            fileName: string;
            contentType: string;
            sizeBytes: number;
            createdAt: number;
        };
        UpdatedRunCase: {
            ulid: string;
            runUlid: string;
            /** @description Null once the test case was deleted; the snapshot stays */
            caseUlid: string | null;
            displayId: string;
            title: string;
            suiteName: string | null;
            position: number;
            /** @enum {string} */
            status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            assigneeUlid: string | null;
            elapsedMs: number | null;
            steps: {
                ulid: string;
                position: number;
                action: string;
                expectedResult: string | null;
                /** @enum {string} */
                status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
                actualResult: string | null;
            }[];
            lastResultAt: number | null;
            createdAt: number;
            updatedAt: number;
            /** @description The result appended when the status changed; null otherwise */
            resultUlid: string | null;
        };
        UpdateRunCaseRequest: {
            /**
             * @description A changed status appends a result and marks every step
             * @enum {string}
             */
            status?: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            /**
             * @description A member of the organization, or null to unassign
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid?: string | null;
            /** @description Time spent, in milliseconds; required with an outcome status when the run setting timeTracking is required */
            elapsedMs?: number | null;
        };
        MarkRunCaseStepRequest: {
            /**
             * @description The step's status; the case takes the aggregate of its steps
             * @enum {string}
             */
            status?: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            /** @description What happened; null clears */
            actualResult?: string | null;
        };
        RunResultPage: {
            items: components["schemas"]["RunResult"][];
            nextCursor: string | null;
        };
        RunResult: {
            ulid: string;
            runUlid: string;
            /** @description Null once the case was removed from the run; its results stay */
            runCaseUlid: string | null;
            /** @description Null once the test case was deleted */
            caseUlid: string | null;
            /** @enum {string} */
            status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
            elapsedMs: number | null;
            comment: string | null;
            executedAt: number;
            /** @description The user who marked: the session user, or the creator of the API token */
            executedByUlid: string | null;
            author: components["schemas"]["Author"];
            /** @enum {string} */
            source: "manual" | "api" | "bulk" | "import";
            /** @description Which run of an imported test this is, from 1 within its import (each retry is a result); 1 when not imported */
            attempt: number;
            /** @description The final result of an imported test that failed and then passed on a retry */
            flaky: boolean;
            /** @description A parameterized test's arguments: CTRF `parameters` (by name), or the bracketed end of a JUnit test name (`test_add[1-2]`: "1-2"); null otherwise */
            parameters: {
                [key: string]: unknown;
            } | string | null;
        };
        StagedResultAttachments: {
            items: components["schemas"]["StagedAttachment"][];
        };
        ResultAttachments: {
            items: components["schemas"]["ResultAttachment"][];
        };
        CommitResultAttachmentsRequest: {
            /** @description Staged uploads to commit, in order; a result holds at most 10 attachments */
            attachments: {
                /** @example staging/01JD3Z8Q4V5W6X7Y8Z9A0B1C2D/01JD3Z8Q4V5W6X7Y8Z9A0B1C2E */
                key: string;
            }[];
            /**
             * @description A step of the run case to attach them at; absent or null: the attempt as a whole
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            stepUlid?: string | null;
        };
        AddRunCasesResult: {
            /** @description The run case of every listed test case, added or already there, in request order */
            items: components["schemas"]["RunCase"][];
            added: number;
        };
        AddRunCasesRequest: {
            /** @description Live test cases of the run's project; those already in the run are skipped */
            caseUlids: string[];
            /**
             * @description Assignee of the added cases (null: unassigned); without it, the run's default assignee
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid?: string | null;
        };
        BulkRunCasesResult: {
            /** @description Cases changed */
            affected: number;
            /** @description ULIDs that changed nothing: already so, naming no case of the run, or assignee-locked */
            unchanged: number;
        };
        BulkMarkRunCasesRequest: {
            /** @description Run case ULIDs or the test case ULIDs they snapshot; ULIDs naming no case of the run are skipped */
            caseUlids: string[];
            /** @enum {string} */
            status: "passed" | "failed" | "skipped" | "blocked";
        };
        BulkAssignRunCasesRequest: {
            /** @description Run case ULIDs or the test case ULIDs they snapshot; ULIDs naming no case of the run are skipped */
            caseUlids: string[];
            /**
             * @description A member of the organization, or null to unassign
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            assigneeUlid: string | null;
        };
        BulkRunCasesRequest: {
            /** @description Run case ULIDs or the test case ULIDs they snapshot; ULIDs naming no case of the run are skipped */
            caseUlids: string[];
        };
        SubmitRunResultsResult: {
            /** @description Entries that changed their case's status */
            affected: number;
            /** @description Entries that repeated their case's status (their result is appended all the same) */
            unchanged: number;
            /** @description The appended results, one per entry, in request order */
            resultUlids: string[];
        };
        SubmitRunResultsRequest: {
            results: components["schemas"]["RunResultEntry"][];
        };
        /**
         * @example {
         *       "runCaseUlid": "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D",
         *       "status": "passed",
         *       "elapsedMs": 1250,
         *       "comment": "Green on staging"
         *     }
         */
        RunResultEntry: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            runCaseUlid?: string;
            /**
             * @description The test case ULID of a case of the run
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            caseUlid?: string;
            /** @enum {string} */
            status: "passed" | "failed" | "skipped" | "blocked";
            elapsedMs?: number | null;
            comment?: string | null;
        };
        ReconcileRunResult: {
            added: number;
            removed: number;
            reassigned: number;
            run: components["schemas"]["RunResponse"];
        };
        CreatedShareLink: {
            ulid: string;
            /** @description The secret of the link, shown only in this answer */
            token: string;
            /** @description The public page: <TCMS_PUBLIC_URL>/share/runs/<token> */
            url: string;
            createdAt: number;
            expiresAt: number | null;
        };
        CreateShareLinkRequest: {
            /**
             * @description Epoch ms, in the future and at most 366 days ahead; omitted: the link never expires
             * @example 1798761600000
             */
            expiresAt?: number;
        };
        ShareLinkList: {
            items: components["schemas"]["ShareLink"][];
        };
        ShareLink: {
            ulid: string;
            runUlid: string;
            createdAt: number;
            /** @description Null: never expires */
            expiresAt: number | null;
        };
        /** @description What a share link shows of a run, and nothing else */
        PublicRun: {
            name: string;
            /** @enum {string} */
            state: "open" | "closed";
            counts: components["schemas"]["StatusCounts"];
            /** @description Passed cases as a percentage of total, two decimals; 0 without cases */
            passRate: number;
            configurations: {
                groupName: string;
                valueName: string;
            }[];
            /** @description The run's environment, or its legacy free-text one */
            environmentName: string | null;
            cases: {
                displayId: string;
                title: string;
                /** @enum {string} */
                status: "untested" | "retested" | "passed" | "failed" | "skipped" | "blocked";
                elapsedMs: number | null;
            }[];
        };
        ResultImport: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            runUlid: string;
            /** @description Tests in the report(s) */
            tests: number;
            /** @description Results appended: one per attempt of every test bound to a case */
            results: number;
            createdCases: number;
            /** @description Existing cases the tests were bound to */
            matchedCases: number;
            /** @description Tests left out: no case and createCases=false, or their automation key belongs to an archived case */
            unmatched: {
                name: string;
                /** @enum {string} */
                reason: "no_case" | "archived_case";
            }[];
            /** @description Runs of the tests, retries included */
            attempts: number;
        };
        /** @description Each setting with its source: project, organization or default */
        ProjectRunSettings: {
            settings: {
                allowResultsInClosedRuns: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                assigneeResultLock: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                timeTracking: {
                    /** @enum {string} */
                    value: "off" | "optional" | "required";
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                requireCommentOnNegativeResult: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                defaultAssigneeUserId: {
                    value: string | null;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
            };
        };
        /** @description At least one key; null removes the project override */
        UpdateProjectRunSettingsRequest: {
            /** @description Closed (not aborted) runs accept changes; default true */
            allowResultsInClosedRuns?: boolean | null;
            /** @description Only the assignee may mark a case; default false */
            assigneeResultLock?: boolean | null;
            /**
             * @description off, optional (default) or required
             * @enum {string|null}
             */
            timeTracking?: "off" | "optional" | "required" | null;
            /** @description Client-side only; default false */
            requireCommentOnNegativeResult?: boolean | null;
            /**
             * @description A member of the organization; project only
             * @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D
             */
            defaultAssigneeUserId?: string | null;
        };
        /** @description Each setting with its source: organization or default */
        OrganizationRunSettings: {
            settings: {
                allowResultsInClosedRuns: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                assigneeResultLock: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                timeTracking: {
                    /** @enum {string} */
                    value: "off" | "optional" | "required";
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
                requireCommentOnNegativeResult: {
                    value: boolean;
                    /** @enum {string} */
                    source: "project" | "organization" | "default";
                };
            };
        };
        /** @description At least one key; null removes the organization override */
        UpdateOrganizationRunSettingsRequest: {
            /** @description Closed (not aborted) runs accept changes; default true */
            allowResultsInClosedRuns?: boolean | null;
            /** @description Only the assignee may mark a case; default false */
            assigneeResultLock?: boolean | null;
            /**
             * @description off, optional (default) or required
             * @enum {string|null}
             */
            timeTracking?: "off" | "optional" | "required" | null;
            /** @description Client-side only; default false */
            requireCommentOnNegativeResult?: boolean | null;
        };
        AuditEventPage: {
            events: components["schemas"]["AuditEvent"][];
            nextCursor: string | null;
        };
        /** @description AuditEventOut; `changes` entries carry scalars */
        AuditEvent: {
            ulid: string;
            action: string;
            actor: {
                /** @enum {string} */
                kind: "user";
                ulid: string | null;
                email: string | null;
                displayName: string | null;
            } | {
                /** @enum {string} */
                kind: "api_token";
                ulid: string | null;
                name: string | null;
            } | {
                /** @enum {string} */
                kind: "system";
            };
            entityType: string;
            entityUlid: string;
            entityLabel: string;
            runUlid: string | null;
            metadata: {
                [key: string]: unknown;
            };
            createdAt: number;
        };
        ApiResultUsage: {
            /**
             * @description The calendar month (UTC) 'YYYY-MM'
             * @example 2026-11
             */
            periodKey: string;
            /** @description Machine-authored results counted this month */
            used: number;
            /** @description The monthly ceiling in force; null when unlimited */
            limit: number | null;
        };
        SeatUsage: {
            /** @description Owners, admins and members (suspended ones too) and pending unexpired non-viewer invitations */
            used: number;
            /** @description The seat limit in force; null when unlimited */
            limit: number | null;
        };
        Subscription: {
            plan: string;
            /** @description Committed seats; null before any checkout */
            seats: number | null;
            /** @enum {string} */
            status: "active" | "none";
            currentPeriodStart: number | null;
            currentPeriodEnd: number | null;
            pendingChange: {
                seats: number;
                effectiveAt: number;
            } | null;
            provider: string;
        };
        SubscriptionCheckoutRequest: {
            /**
             * @description Committed seats
             * @example 10
             */
            seats: number;
        };
        ChangeSubscriptionSeatsRequest: {
            /**
             * @description Committed seats
             * @example 10
             */
            seats: number;
            /**
             * @description For a decrease: `period_end` (the default) schedules it, `now` applies it at once. An increase always applies now.
             * @enum {string}
             */
            at?: "now" | "period_end";
        };
        OrganizationMemberPage: {
            items: components["schemas"]["OrganizationMember"][];
            page: number;
            pageSize: number;
            total: number;
        };
        OrganizationMember: {
            userUlid: string;
            email: string;
            firstName: string;
            lastName: string;
            displayName: string;
            avatarKey: string | null;
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
            joinedAt: number;
            /** @description Set while staff suspend the member: they keep their seat but cannot act in the organization */
            suspendedAt: number | null;
        };
        /**
         * @example {
         *       "role": "admin"
         *     }
         */
        UpdateMemberRequest: {
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        Invitation: {
            ulid: string;
            email: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /** @enum {string} */
            locale: "en" | "es";
            /**
             * @description A pending invitation past expiresAt reads as expired
             * @enum {string}
             */
            status: "pending" | "accepted" | "revoked" | "expired";
            grantAllPrivateProjects: boolean;
            invitedBy: {
                ulid: string | null;
                displayName: string;
            };
            expiresAt: number;
            createdAt: number;
            /**
             * @description null while queued, retried or once delivered; failed after the last retry; suppressed when the address refuses mail
             * @enum {string|null}
             */
            emailDeliveryStatus: "failed" | "suppressed" | null;
        };
        /**
         * @example {
         *       "email": "grace@example.com",
         *       "role": "member",
         *       "locale": "en"
         *     }
         */
        CreateInvitationRequest: {
            /** Format: email */
            email: string;
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /**
             * @description Language of the invitation mail; en by default
             * @enum {string}
             */
            locale?: "en" | "es";
            /** @description At acceptance, grant the new member every private project of the organization (default false) */
            grantAllPrivateProjects?: boolean;
        };
        BulkInvitationResult: {
            /** @description One entry per distinct address, in first-appearance order */
            results: {
                email: string;
                /** @enum {string} */
                status: "created" | "duplicate_pending" | "already_member" | "invalid_email";
            }[];
        };
        /**
         * @example {
         *       "emails": [
         *         "grace@example.com",
         *         "alan@example.com"
         *       ],
         *       "role": "member"
         *     }
         */
        BulkInvitationRequest: {
            /** @description 1..50 addresses; repeats (case-insensitive, trimmed) count once */
            emails: string[];
            /** @enum {string} */
            role: "admin" | "member" | "viewer";
            /**
             * @description Language of the invitation mail; en by default
             * @enum {string}
             */
            locale?: "en" | "es";
            /** @description At acceptance, grant the new member every private project of the organization (default false) */
            grantAllPrivateProjects?: boolean;
        };
        InvitationPage: {
            items: components["schemas"]["Invitation"][];
            page: number;
            pageSize: number;
            total: number;
        };
        AcceptedInvitation: {
            organization: components["schemas"]["Organization"];
            /** @enum {string} */
            role: "owner" | "admin" | "member" | "viewer";
        };
        AcceptInvitationRequest: {
            token: string;
        };
        UserGroup: {
            ulid: string;
            name: string;
            description: string | null;
            memberCount: number;
            /** @description Every project the group is assigned to */
            projectCount: number;
            createdAt: number;
            updatedAt: number;
        };
        /**
         * @example {
         *       "name": "QA team",
         *       "description": "Release testers"
         *     }
         */
        CreateUserGroupRequest: {
            name: string;
            description?: string | null;
            /** @description Members to seed the group with (organization members) */
            memberUserUlids?: string[];
            /** @description Projects to assign the group to, public ones included */
            projectUlids?: string[];
        };
        UserGroupPage: {
            items: components["schemas"]["UserGroup"][];
            page: number;
            pageSize: number;
            total: number;
        };
        /** @description At least one field; description takes null to clear. No other key (members and projects have their own routes) */
        UpdateUserGroupRequest: {
            name?: string;
            description?: string | null;
        };
        UserGroupMemberPage: {
            items: components["schemas"]["UserGroupMember"][];
            page: number;
            pageSize: number;
            total: number;
        };
        UserGroupMember: {
            userUlid: string;
            displayName: string;
            email: string;
            addedAt: number;
        };
        /**
         * @description Exactly one of userUlid, userUlids
         * @example {
         *       "userUlid": "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D"
         *     }
         */
        AddUserGroupMembersRequest: {
            /** @example 01JD3Z8Q4V5W6X7Y8Z9A0B1C2D */
            userUlid?: string;
            userUlids?: string[];
        };
        /** @description Projects the group is assigned to that the caller can see */
        UserGroupProjectPage: {
            items: components["schemas"]["Project"][];
            page: number;
            pageSize: number;
            total: number;
        };
        /**
         * @example {
         *       "projectUlids": [
         *         "01JD3Z8Q4V5W6X7Y8Z9A0B1C2D"
         *       ]
         *     }
         */
        AssignUserGroupProjectsRequest: {
            projectUlids: string[];
        };
        WebhookWithSecret: {
            ulid: string;
            url: string;
            events: string[];
            description: string | null;
            active: boolean;
            /** @description Failed deliveries in a row; at 20 the webhook is deactivated */
            consecutiveFailures: number;
            createdAt: number;
            updatedAt: number;
            /** @description The signing secret (whsec_…), shown only in this answer */
            secret: string;
        };
        /**
         * @example {
         *       "url": "https://ci.example.com/hooks/tcms",
         *       "events": [
         *         "run.*"
         *       ],
         *       "description": "CI"
         *     }
         */
        CreateWebhookRequest: {
            /**
             * @description Where deliveries are POSTed: http or https, no credentials, at most 2048 characters
             * @example https://ci.example.com/hooks/tcms
             */
            url: string;
            /**
             * @description Audit actions to deliver, 1..50 distinct: `*`, an action, or a prefix like `run.*`
             * @example [
             *       "run.*"
             *     ]
             */
            events: string[];
            description?: string | null;
            active?: boolean;
        };
        WebhookPage: {
            items: components["schemas"]["Webhook"][];
            page: number;
            pageSize: number;
            total: number;
        };
        Webhook: {
            ulid: string;
            url: string;
            events: string[];
            description: string | null;
            active: boolean;
            /** @description Failed deliveries in a row; at 20 the webhook is deactivated */
            consecutiveFailures: number;
            createdAt: number;
            updatedAt: number;
        };
        /** @description At least one field; description takes null to clear; active: true also resets consecutiveFailures and sends one delivery at a time until one succeeds */
        UpdateWebhookRequest: {
            /**
             * @description Where deliveries are POSTed: http or https, no credentials, at most 2048 characters
             * @example https://ci.example.com/hooks/tcms
             */
            url?: string;
            /**
             * @description Audit actions to deliver, 1..50 distinct: `*`, an action, or a prefix like `run.*`
             * @example [
             *       "run.*"
             *     ]
             */
            events?: string[];
            description?: string | null;
            active?: boolean;
        };
        WebhookDeliveryPage: {
            items: components["schemas"]["WebhookDelivery"][];
            page: number;
            pageSize: number;
            total: number;
        };
        WebhookDelivery: {
            /** @description The webhook-id header of every attempt */
            ulid: string;
            eventUlid: string;
            action: string;
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: number;
            lastStatusCode: number | null;
            lastError: string | null;
            /** @description Null unless pending */
            nextAttemptAt: number | null;
            deliveredAt: number | null;
            createdAt: number;
        };
    };
    responses: {
        /** @description Bad request (malformed JSON, invalid Idempotency-Key, display ID of another project) */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The role lacks the permission, or the project is locked */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unknown resource, or one of another organization */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict (duplicate, ceiling reached, Idempotency-Key in flight) */
        Conflict: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description File or body too large */
        ContentTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Validation failed */
        ValidationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Per-minute request ceiling reached */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid credentials */
        Unauthorized: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Missing or invalid credentials */
        MeteredUnauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unknown resource, or one of another organization */
        MeteredNotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Validation failed */
        MeteredValidationFailed: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Per-minute request ceiling reached */
        MeteredTooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Bad request (malformed JSON, invalid Idempotency-Key, display ID of another project) */
        MeteredBadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The role lacks the permission, or the project is locked */
        MeteredForbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict (duplicate, ceiling reached, Idempotency-Key in flight) */
        MeteredConflict: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description File or body too large */
        MeteredContentTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unsupported media type */
        MeteredUnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Requests allowed per 60-second window (API-token callers) */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current window (API-token callers) */
        "X-RateLimit-Remaining": number;
        /** @description When the window rolls, in epoch seconds (API-token callers) */
        "X-RateLimit-Reset": number;
        /** @description Whole seconds to wait: with 429, and with 409 when the same Idempotency-Key is still in flight */
        "Retry-After": number;
        /** @description Present on the replay of an earlier response to the same Idempotency-Key */
        "Idempotency-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The service is up */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready to serve */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description A dependency (the database) does not answer */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    signUp: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignupRequest"];
            };
        };
        responses: {
            /** @description Created (200 when an existing account was repaired); sets the session cookie. With invitationToken, `organization` is the inviting one */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignupResponse"];
                };
            };
            400: components["responses"]["BadRequest"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    verifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["VerifyEmailRequest"];
            };
        };
        responses: {
            /** @description The verified user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifiedUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    resendVerificationEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mail is queued */
            202: {
                headers: {
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    logIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginRequest"];
            };
        };
        responses: {
            /** @description Signed in; sets the session cookie */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasswordResetRequest"];
            };
        };
        responses: {
            /** @description Accepted: a mail is on its way if an account has the address */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ConfirmPasswordResetRequest"];
            };
        };
        responses: {
            /** @description The user, whose password is now the new one */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VerifiedUser"];
                };
            };
            400: components["responses"]["BadRequest"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    logOut: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            401: components["responses"]["Unauthorized"];
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOrganizationRequest"];
            };
        };
        responses: {
            /** @description The organization */
            201: {
                headers: {
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Organization"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listApiTokens: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Tokens (never their secrets) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["ApiToken"][];
                    };
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createApiToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiTokenRequest"];
            };
        };
        responses: {
            /** @description The token with its secret */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiToken"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    revokeApiToken: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                tokenUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; the token answers 401 from now on */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listOAuthGrants: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Authorized applications (never their tokens) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: components["schemas"]["OAuthGrant"][];
                    };
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    revokeOAuthGrant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                grantUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; the application's tokens answer 401 from now on */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listProjects: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
                /** @description Only `stats`: adds stats, team and teamCount to each item */
                include?: "stats";
                /** @description CSV of user ULIDs: projects whose team includes any of them (unknown ULIDs dropped) */
                memberUlid?: string | string[];
                /** @description without, active (an open run), any (at least one run) */
                runs?: string | string[];
                /** @description has (an unresolved defect), without */
                defects?: string | string[];
                /** @description has (a live milestone), without */
                milestones?: string | string[];
                /** @description has (a non-archived case), without */
                cases?: string | string[];
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of projects */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateProjectRequest"];
            };
        };
        responses: {
            /** @description The project */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The project */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateProject: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateProjectRequest"];
            };
        };
        responses: {
            /** @description The project */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Project"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    uploadProjectAvatar: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: One `file` part of at most 5 MiB */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description PNG, JPEG or WebP image, at most 5 MiB
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description The new avatar key and version */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAvatar"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            415: components["responses"]["MeteredUnsupportedMediaType"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteProjectAvatar: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Avatar removed */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAvatar"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getProjectAccess: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Mode and owner */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccess"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateProjectAccess: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProjectAccessRequest"];
            };
        };
        responses: {
            /** @description Mode and owner */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccess"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listProjectAccessMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allowlist rows */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccessMemberList"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    grantProjectAccess: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["GrantProjectAccessRequest"];
            };
        };
        responses: {
            /** @description The allowlist row, granted */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccessMember"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    revokeProjectAccess: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
                userUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listProjectAccessGroups: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The assigned groups */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccessGroupList"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    assignProjectAccessGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignProjectAccessGroupRequest"];
            };
        };
        responses: {
            /** @description The assigned group */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectAccessGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    unassignProjectAccessGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
                userGroupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unassigned */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listSuites: {
        parameters: {
            query?: {
                /** @description Items per page, 1..200 */
                limit?: number;
                /** @description The nextCursor of the previous page */
                cursor?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cursor page of suites */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuitePage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createSuite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateSuiteRequest"];
            };
        };
        responses: {
            /** @description The suite */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suite"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSuiteByDisplayId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
                /** @description `<projectCode>-S<number>` */
                displayId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The suite */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suite"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSuite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                suiteUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The suite */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suite"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteSuite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                suiteUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateSuite: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                suiteUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateSuiteRequest"];
            };
        };
        responses: {
            /** @description The suite */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Suite"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listTestCases: {
        parameters: {
            query?: {
                /** @description Items per page, 1..200 */
                limit?: number;
                /** @description The nextCursor of the previous page */
                cursor?: string;
                /** @description Only the suite's own cases (not those of its sub-suites) */
                suiteUlid?: string;
                /** @description Case-insensitive substring of the title (taken literally) */
                q?: string;
                /** @description Only cases carrying this tag (exact match) */
                tag?: string;
                /** @description true: archived cases instead of active ones */
                archived?: "true" | "false";
                /** @description Only the case with this automation key (exact, case-sensitive) */
                automationKey?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cursor page of test cases */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCaseCursorPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTestCaseRequest"];
            };
        };
        responses: {
            /** @description The test case */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    mergeTestCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["MergeTestCasesRequest"];
            };
        };
        responses: {
            /** @description The target test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listArchivedTestCases: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of archived test cases */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCasePage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getTestCaseByDisplayId: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
                displayId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTestCaseRequest"];
            };
        };
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replaceTestCaseSteps: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutTestCaseStepsRequest"];
            };
        };
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    archiveTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    restoreTestCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    importTestCases: {
        parameters: {
            query?: {
                /** @description Detected from the content when absent: XML is a TestRail export, anything else CSV */
                format?: "csv" | "testrail";
                /** @description true: validate and count (answer 200) without writing anything */
                dryRun?: "true" | "false";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: 1 to 1 `file` parts of at most 50 MiB each; or the file itself as the body (text/csv, application/xml, text/xml) */
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string[];
                };
                "text/csv": string;
                "application/xml": string;
                "text/xml": string;
            };
        };
        responses: {
            /** @description The cases were imported (200 with the same shape for a dry run) */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TestCaseImport"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            415: components["responses"]["MeteredUnsupportedMediaType"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listFlakyTests: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description The most recent passed or failed results of each case that are looked at, 5..100 */
                window?: number;
                /** @description Flips between passed and failed that make a case flaky, 1..window-1 */
                minFlips?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of flaky cases */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlakyTestPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getTrendReport: {
        parameters: {
            query?: {
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description Start of the window, epoch ms, inclusive (default: 30 days before `to`) */
                from?: number;
                /** @description End of the window, epoch ms, exclusive (default: now); at most 366 days after `from` */
                to?: number;
                /** @description day, or week (weeks start on Monday) */
                bucket?: "day" | "week";
                /** @description The IANA time zone whose days and weeks the buckets are */
                timeZone?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrendReport"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getBurnUpReport: {
        parameters: {
            query?: {
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description Start of the window, epoch ms, inclusive (default: 30 days before `to`) */
                from?: number;
                /** @description End of the window, epoch ms, exclusive (default: now); at most 366 days after `from` */
                to?: number;
                /** @description day, or week (weeks start on Monday) */
                bucket?: "day" | "week";
                /** @description The IANA time zone whose days and weeks the buckets are */
                timeZone?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BurnUpReport"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getFailingReport: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description The days looked back, 1..366 */
                limit?: number;
                /** @description Instead of days: each case's last results, 1..100, whenever they were */
                lastResults?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaseResultStatsPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSlowestReport: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description The days looked back, 1..366 */
                limit?: number;
                /** @description Instead of days: each case's last results, 1..100, whenever they were */
                lastResults?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CaseResultStatsPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getCoverageReport: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description The instant notExecutedSince counts from, epoch ms (default: 30 days ago) */
                since?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CoverageReport"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getDefectReport: {
        parameters: {
            query?: {
                /** @description Only the plan's runs */
                planUlid?: string;
                /** @description Only the milestone's runs: those linked to it, and those of plans linked to it (a milestone ULID) */
                milestoneId?: string;
                /** @description Only these runs: comma-separated run ULIDs, at most 200 */
                runUlids?: string;
                /** @description Start of the window, epoch ms, inclusive (default: 30 days before `to`) */
                from?: number;
                /** @description End of the window, epoch ms, exclusive (default: now); at most 366 days after `from` */
                to?: number;
                /** @description day, or week (weeks start on Monday) */
                bucket?: "day" | "week";
                /** @description The IANA time zone whose days and weeks the buckets are */
                timeZone?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefectReport"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    stageStepAttachments: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: 1 to 10 `file` parts of at most 10 MiB each */
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string[];
                };
            };
        };
        responses: {
            /** @description The staged objects (no database row until committed) */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StagedAttachments"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            415: components["responses"]["MeteredUnsupportedMediaType"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    downloadStepAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                caseUlid: string;
                attachmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with its stored content type */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteStepAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                attachmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listTestCaseComments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of comments */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommentPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createTestCaseComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCommentRequest"];
            };
        };
        responses: {
            /** @description The comment */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteTestCaseComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateTestCaseComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCommentRequest"];
            };
        };
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    pinTestCaseComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    unpinTestCaseComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listDefectComments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of comments */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommentPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createDefectComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCommentRequest"];
            };
        };
        responses: {
            /** @description The comment */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteDefectComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateDefectComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateCommentRequest"];
            };
        };
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    pinDefectComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    unpinDefectComment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
                commentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The comment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Comment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listCustomFields: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
                entity?: "test_case" | "test_run" | "defect";
                /** @description Only definitions visible in this project */
                projectUlid?: string;
                /** @description `all` adds titleI18n, placeholderI18n and each option's nameI18n */
                locales?: "all";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of definitions, in position order */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createCustomField: {
        parameters: {
            query?: {
                /** @description `all` adds titleI18n, placeholderI18n and each option's nameI18n */
                locales?: "all";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateCustomFieldRequest"];
            };
        };
        responses: {
            /** @description The new definition */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getCustomField: {
        parameters: {
            query?: {
                /** @description `all` adds titleI18n, placeholderI18n and each option's nameI18n */
                locales?: "all";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
                fieldUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The definition */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldResponse"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteCustomField: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                fieldUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateCustomField: {
        parameters: {
            query?: {
                /** @description `all` adds titleI18n, placeholderI18n and each option's nameI18n */
                locales?: "all";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                fieldUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["UpdateCustomFieldRequest"];
            };
        };
        responses: {
            /** @description The definition */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    resetCustomField: {
        parameters: {
            query?: {
                /** @description `all` adds titleI18n, placeholderI18n and each option's nameI18n */
                locales?: "all";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                fieldUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["ResetCustomFieldRequest"];
            };
        };
        responses: {
            /** @description The restored definition */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replaceTestCaseCustomFieldValues: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutCustomFieldValuesRequest"];
            };
        };
        responses: {
            /** @description The case's full customFieldValues */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldValuesResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    setTestCaseCustomFieldValue: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                caseUlid: string;
                fieldUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PatchCustomFieldValueRequest"];
            };
        };
        responses: {
            /** @description The case's full customFieldValues */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldValuesResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listMilestones: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of milestones */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MilestonePage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createMilestone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateMilestoneRequest"];
            };
        };
        responses: {
            /** @description The milestone */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Milestone"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getMilestone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                milestoneUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The milestone */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Milestone"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteMilestone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                milestoneUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateMilestone: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                milestoneUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMilestoneRequest"];
            };
        };
        responses: {
            /** @description The milestone */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Milestone"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listEnvironments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of environments */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnvironmentPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateEnvironmentRequest"];
            };
        };
        responses: {
            /** @description The environment */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Environment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                environmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The environment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Environment"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                environmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateEnvironment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                environmentUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateEnvironmentRequest"];
            };
        };
        responses: {
            /** @description The environment */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Environment"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listConfigurationGroups: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of configuration groups */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationGroupPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createConfigurationGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConfigurationGroupRequest"];
            };
        };
        responses: {
            /** @description The configuration group */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getConfigurationGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                groupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configuration group */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationGroup"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteConfigurationGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                groupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateConfigurationGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                groupUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConfigurationGroupRequest"];
            };
        };
        responses: {
            /** @description The configuration group */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConfigurationGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                groupUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateConfigurationRequest"];
            };
        };
        responses: {
            /** @description The configuration value */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Configuration"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteConfiguration: {
        parameters: {
            query?: {
                /** @description `true` hard-deletes the value (owner/admin), also one already soft-deleted */
                purge?: "true" | "false";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                configurationUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateConfiguration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                configurationUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConfigurationRequest"];
            };
        };
        responses: {
            /** @description The configuration value */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Configuration"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listDefects: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
                /** @description CSV (or repeated) of open, in_progress, resolved, closed */
                status?: string | string[];
                /** @description Defects assigned to this user; empty: unassigned defects */
                assigneeUlid?: "" | string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of defects */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefectPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createDefect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDefectRequest"];
            };
        };
        responses: {
            /** @description The defect */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Defect"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getDefect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The defect */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Defect"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteDefect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateDefect: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateDefectRequest"];
            };
        };
        responses: {
            /** @description The defect */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Defect"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listDefectLinks: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of linked results */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefectLinkedResultPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    linkDefectResult: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinkDefectResultRequest"];
            };
        };
        responses: {
            /** @description The linked result */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DefectLinkedResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    unlinkDefectResult: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                defectUlid: string;
                resultUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listPlans: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of plans */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePlanRequest"];
            };
        };
        responses: {
            /** @description The plan */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plan"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getPlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plan */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDetail"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deletePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updatePlan: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdatePlanRequest"];
            };
        };
        responses: {
            /** @description The plan with its progress */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanDetail"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listPlanCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The selection */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanCases"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replacePlanCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPlanCasesRequest"];
            };
        };
        responses: {
            /** @description The selection */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanCases"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    assignPlanCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
                planCaseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignPlanCaseRequest"];
            };
        };
        responses: {
            /** @description The selection item */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listPlanConfigurations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The selected values */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanConfigurations"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replacePlanConfigurations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPlanConfigurationsRequest"];
            };
        };
        responses: {
            /** @description The selected values */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanConfigurations"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replacePlanExcludedCombinations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanExcludedCombinations"];
            };
        };
        responses: {
            /** @description The excluded comboKeys */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanExcludedCombinations"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listPlanCombinations: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The combinations */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanCombinations"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listPlanRuns: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanRunPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listRuns: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
                /** @description CSV (or repeated) of in_progress, passed, failed */
                status?: string | string[];
                /** @description Repeatable, OR-ed; an environment ULID matches the linked environment, other text the legacy text exactly; empty values are ignored */
                env?: string | string[];
                /** @description Runs created by this user in a session (token-authored runs never match) */
                authorUlid?: string;
                /** @description Runs with this default assignee; empty: runs without one */
                assigneeUlid?: "" | string;
                /** @description Repeatable <fieldUlid>:<value[,value]> (OR within, AND across): option ULIDs, true/false, user ULIDs, or `empty` (no stored value) */
                cf?: string | string[];
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of runs (without custom field values) */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRunRequest"];
            };
        };
        responses: {
            /** @description The run */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listLegacyRunEnvironments: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The legacy texts */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LegacyRunEnvironments"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunDetail"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRunRequest"];
            };
        };
        responses: {
            /** @description The run */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    closeRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The closed run */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    abortRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The aborted run */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    cloneRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CloneRunRequest"];
            };
        };
        responses: {
            /** @description The new run */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    replaceRunCustomFieldValues: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutCustomFieldValuesRequest"];
            };
        };
        responses: {
            /** @description The run's full customFieldValues */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomFieldValuesResponse"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listRunCases: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Comma-separated case statuses (untested, retested, passed, failed, skipped, blocked); any of them matches */
                status?: string;
                /** @description A member's ULID: cases assigned to them; empty: unassigned cases */
                assigneeUlid?: string | "";
                /** @description Case-insensitive substring search */
                q?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of run cases */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCasePage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    addRunCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddRunCasesRequest"];
            };
        };
        responses: {
            /** @description The run cases of the listed cases */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AddRunCasesResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getRunCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCaseDetail"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    markRunCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRunCaseRequest"];
            };
        };
        responses: {
            /** @description The run case and the result appended, if any */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UpdatedRunCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    openRunCase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The run case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    markRunCaseStep: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
                stepUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["MarkRunCaseStepRequest"];
            };
        };
        responses: {
            /** @description The run case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunCase"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listRunResults: {
        parameters: {
            query?: {
                /** @description Items per page, 1..200 */
                limit?: number;
                /** @description The nextCursor of the previous page */
                cursor?: string;
                /** @description Only the results of this run case */
                runCaseUlid?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A cursor page of results */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunResultPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    stageResultAttachments: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
                resultUlid: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: 1 to 10 `file` parts of at most 10 MiB each */
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string[];
                };
            };
        };
        responses: {
            /** @description The staged objects (no attachment until committed) */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StagedResultAttachments"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            415: components["responses"]["MeteredUnsupportedMediaType"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    commitResultAttachments: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
                resultUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CommitResultAttachmentsRequest"];
            };
        };
        responses: {
            /** @description The attachments committed */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultAttachments"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    downloadResultAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
                resultUlid: string;
                attachmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, with its stored content type */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteResultAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                runCaseUlid: string;
                resultUlid: string;
                attachmentUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    bulkMarkRunCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkMarkRunCasesRequest"];
            };
        };
        responses: {
            /** @description How many cases changed and how many did not */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRunCasesResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    bulkAssignRunCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkAssignRunCasesRequest"];
            };
        };
        responses: {
            /** @description How many cases changed and how many did not */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRunCasesResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    bulkRetryRunCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkRunCasesRequest"];
            };
        };
        responses: {
            /** @description How many cases changed and how many did not */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRunCasesResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    bulkRemoveRunCases: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkRunCasesRequest"];
            };
        };
        responses: {
            /** @description How many cases changed and how many did not */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkRunCasesResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    submitRunResults: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubmitRunResultsRequest"];
            };
        };
        responses: {
            /** @description The appended results */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubmitRunResultsResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    reconcileRun: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description What changed, and the run */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReconcileRunResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    streamRunProgress: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: at once one `progress` event with the run's current `{ runUlid, state, counts, total, passRate, lastResultAt }`, then one after each change (at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: a stream always starts with the current state. Each server process keeps at most 20 streams open per credential and 50 per client address by default (TCMS_SSE_STREAMS_PER_CREDENTIAL, TCMS_SSE_STREAMS_PER_ADDRESS); one more answers 429 with Retry-After. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    streamPlanProgress: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                planUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: at once one `progress` event with the plan's current `progress` object (as the plan detail shows it), then one after each change (at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: a stream always starts with the current state. Each server process keeps at most 20 streams open per credential and 50 per client address by default (TCMS_SSE_STREAMS_PER_CREDENTIAL, TCMS_SSE_STREAMS_PER_ADDRESS); one more answers 429 with Retry-After. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listShareLinks: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The links */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShareLinkList"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createShareLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateShareLinkRequest"];
            };
        };
        responses: {
            /** @description The link with its token and page address */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedShareLink"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    revokeShareLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                runUlid: string;
                shareLinkUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSharedRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of a share link */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No credentials. An unknown, revoked or expired token, and any token of a locked project, answer the same 404; at most 120 requests per minute per client address to the public share routes (429 with Retry-After). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PublicRun"];
                };
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    streamSharedRunProgress: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The token of a share link */
                token: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Server-Sent Events: at once one `progress` event with the run's current `{ runUlid, state, counts, total, passRate, lastResultAt }`, then one after each change (at most one per 250 ms); a comment line every 15 seconds keeps the connection open. `Last-Event-ID` is accepted: a stream always starts with the current state. Each server process keeps at most 20 streams open per credential and 50 per client address by default (TCMS_SSE_STREAMS_PER_CREDENTIAL, TCMS_SSE_STREAMS_PER_ADDRESS); one more answers 429 with Retry-After. The stream ends once the link stops working. No credentials. An unknown, revoked or expired token, and any token of a locked project, answer the same 404; at most 120 requests per minute per client address to the public share routes (429 with Retry-After). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            404: components["responses"]["NotFound"];
            422: components["responses"]["ValidationFailed"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    importResults: {
        parameters: {
            query?: {
                /** @description Detected from the content when absent */
                format?: "junit" | "ctrf";
                /** @description Add the results to this open run of the project */
                runUlid?: string;
                /** @description The name of the new run; default "<format> import <ISO time>" */
                runName?: string;
                /** @description A new run from this plan: its selection, then the report's other cases */
                planUlid?: string;
                /** @description The environment of a new run */
                environmentId?: string;
                /** @description The milestone of a new run */
                milestoneId?: string;
                /** @description Create a case for a test bound to none (default true); false lists it in unmatched */
                createCases?: "true" | "false";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description multipart/form-data: 1 to 20 `file` parts of at most 100 MiB each; or the file itself as the body (application/xml, text/xml, application/json) */
        requestBody: {
            content: {
                "multipart/form-data": {
                    file: string[];
                };
                "application/xml": string;
                "text/xml": string;
                "application/json": string;
            };
        };
        responses: {
            /** @description The results were appended */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ResultImport"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            415: components["responses"]["MeteredUnsupportedMediaType"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getProjectRunSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRunSettings"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateProjectRunSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateProjectRunSettingsRequest"];
            };
        };
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProjectRunSettings"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getOrganizationRunSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationRunSettings"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateOrganizationRunSettings: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationRunSettingsRequest"];
            };
        };
        responses: {
            /** @description The settings */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationRunSettings"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listOrganizationAuditEvents: {
        parameters: {
            query?: {
                /** @description Page size, default 50; values above 100 are capped to 100 */
                limit?: number;
                /** @description Return events with a ULID below this one */
                cursor?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listRunAuditEvents: {
        parameters: {
            query?: {
                /** @description Page size, default 50; values above 100 are capped to 100 */
                limit?: number;
                /** @description Return events with a ULID below this one */
                cursor?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                runUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditEventPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    exportAuditEvents: {
        parameters: {
            query: {
                /** @description Start of the window (inclusive) */
                from: string;
                /** @description End of the window (exclusive) */
                to: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A CSV attachment, streamed */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    exportProject: {
        parameters: {
            query?: {
                /** @description csv or json (default) */
                format?: "csv" | "json";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                /** @description The project code */
                projectId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An attachment, streamed: `{ project, suites, cases }` as JSON, or one CSV row per case */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        project?: unknown;
                        suites: unknown[];
                        cases: unknown[];
                    };
                    "text/csv": string;
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getApiResultUsage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The month, the results counted and the ceiling */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResultUsage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSeatUsage: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Seats used and the limit */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SeatUsage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription readout */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    checkoutSubscription: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCheckoutRequest"];
            };
        };
        responses: {
            /** @description The subscription readout */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    changeSubscriptionSeats: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeSubscriptionSeatsRequest"];
            };
        };
        responses: {
            /** @description The subscription readout */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    cancelSubscriptionPendingChange: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription readout */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listMembers: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
                /** @description Only members with this role */
                role?: "owner" | "admin" | "member" | "viewer";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of members */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMemberPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                userUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; the member's API tokens answer 401 from now on */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                userUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateMemberRequest"];
            };
        };
        responses: {
            /** @description The member */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationMember"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Comma-separated statuses: pending, accepted, revoked, expired */
                status?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of invitations */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInvitationRequest"];
            };
        };
        responses: {
            /** @description The invitation, whatever becomes of its mail */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createInvitationsInBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkInvitationRequest"];
            };
        };
        responses: {
            /** @description One result per distinct address, in first-appearance order */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkInvitationResult"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    resendInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                invitationUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The invitation; its previous token no longer works */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Invitation"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                invitationUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked; its token answers 404 from now on */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInvitationRequest"];
            };
        };
        responses: {
            /** @description The organization joined and the role held there */
            200: {
                headers: {
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptedInvitation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["ContentTooLarge"];
            422: components["responses"]["ValidationFailed"];
        };
    };
    listUserGroups: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Case-insensitive substring search */
                q?: string;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of groups */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroupPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createUserGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserGroupRequest"];
            };
        };
        responses: {
            /** @description The group */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getUserGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The group */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteUserGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateUserGroup: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserGroupRequest"];
            };
        };
        responses: {
            /** @description The group */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listUserGroupMembers: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of members */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroupMemberPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    addUserGroupMembers: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddUserGroupMembersRequest"];
            };
        };
        responses: {
            /** @description The group with its new member count */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    removeUserGroupMember: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                userGroupUlid: string;
                userUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listUserGroupProjects: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of projects */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroupProjectPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    assignUserGroupProjects: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                userGroupUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignUserGroupProjectsRequest"];
            };
        };
        responses: {
            /** @description The group with its new project count */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserGroup"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhooks */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook with its secret */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
            };
            cookie?: never;
        };
        /** @description JSON, at most 10mb (larger bodies answer 413) */
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            413: components["responses"]["MeteredContentTooLarge"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook with its new secret */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookWithSecret"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1 */
                page?: number;
                /** @description Items per page, 1..200 */
                pageSize?: number;
                /** @description Only deliveries in this status */
                status?: "pending" | "delivered" | "failed";
            };
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
    redeliverWebhookDelivery: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session callers: the organization to act in (default: the oldest membership); API tokens carry their own */
                "X-Organization-Id"?: string;
                /** @description Replays the first response for 24 hours; a key such as `deploy-4711` */
                "Idempotency-Key"?: string;
            };
            path: {
                orgUlid: string;
                webhookUlid: string;
                deliveryUlid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new delivery, pending */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "Idempotency-Replayed": components["headers"]["Idempotency-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["MeteredBadRequest"];
            401: components["responses"]["MeteredUnauthorized"];
            403: components["responses"]["MeteredForbidden"];
            404: components["responses"]["MeteredNotFound"];
            409: components["responses"]["MeteredConflict"];
            422: components["responses"]["MeteredValidationFailed"];
            429: components["responses"]["MeteredTooManyRequests"];
        };
    };
}
