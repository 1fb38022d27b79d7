import {
  confirmPasswordResetBodySchema,
  loginBodySchema,
  passwordResetBodySchema,
  sessionSchema,
  signupBodySchema,
  signupResponseSchema,
  verifiedUserSchema,
  verifyEmailBodySchema,
} from '../../src/accounts/accounts.schemas.ts';
import { currentSession, login, logout, resendVerificationMail, signup, verifyEmail } from '../../src/accounts/accounts.service.ts';
import { confirmPasswordReset, requestPasswordReset } from '../../src/accounts/password-reset.service.ts';
import { createOrganizationBodySchema, organizationSchema, orgPathSchema } from '../../src/orgs/orgs.schemas.ts';
import { createOrganization, getOrganization, toOrganization } from '../../src/orgs/orgs.service.ts';
import { defineRoute, Reply } from '../route.ts';

export const authRoutes = [
  defineRoute({
    method: 'post',
    path: '/auth/signup',
    operationId: 'signUp',
    summary: 'Sign up, or repair an account whose password matches',
    tag: 'Identity',
    auth: 'none',
    body: signupBodySchema,
    success: {
      status: 201,
      description:
        'Created (200 when an existing account was repaired); sets the session cookie. With invitationToken, `organization` is the inviting one',
      schema: signupResponseSchema,
    },
    errors: [403, 404, 409, 429],
    handle: async ({ body, ip }) => {
      const result = await signup(body, { ip });
      return new Reply(result.created ? 201 : 200, result.body, {}, { token: result.sessionToken });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/verify-email',
    operationId: 'verifyEmail',
    summary: "Prove the email address with the verification mail's token (no session needed)",
    tag: 'Identity',
    auth: 'none',
    body: verifyEmailBodySchema,
    success: { status: 200, description: 'The verified user', schema: verifiedUserSchema },
    errors: [404],
    handle: ({ body }) => verifyEmail(body.token),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/verify-email/resend',
    operationId: 'resendVerificationEmail',
    summary: 'Send the verification mail again with a new token (the earlier one stops working); at most 5 an hour',
    tag: 'Identity',
    auth: 'user',
    success: { status: 202, description: 'The mail is queued' },
    errors: [409, 429],
    handle: async ({ identity, db }) => {
      await resendVerificationMail(identity, db);
      return new Reply(202, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/login',
    operationId: 'logIn',
    summary: 'Sign in with email and password',
    tag: 'Identity',
    auth: 'none',
    body: loginBodySchema,
    success: { status: 200, description: 'Signed in; sets the session cookie', schema: sessionSchema },
    errors: [429],
    handle: async ({ body, ip }) => {
      const result = await login(body, { ip });
      return new Reply(200, result.body, {}, { token: result.sessionToken });
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/password-reset',
    operationId: 'requestPasswordReset',
    summary:
      'Mail a password reset token to the account with this address (in the language of Accept-Language); the same answer whether an account has it or not; at most 5 an hour per address and 20 per client address',
    tag: 'Identity',
    auth: 'none',
    body: passwordResetBodySchema,
    success: { status: 202, description: 'Accepted: a mail is on its way if an account has the address' },
    errors: [429],
    handle: async ({ body, ip, locale }) => {
      await requestPasswordReset(body.email, { ip }, locale);
      return new Reply(202, undefined);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/password-reset/confirm',
    operationId: 'confirmPasswordReset',
    summary:
      "Set a new password with the password reset mail's token (once, within an hour): ends every session of the user (API tokens stay) and verifies the address",
    tag: 'Identity',
    auth: 'none',
    body: confirmPasswordResetBodySchema,
    success: { status: 200, description: 'The user, whose password is now the new one', schema: verifiedUserSchema },
    errors: [404],
    handle: ({ body }) => confirmPasswordReset(body.token, body.password),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    operationId: 'logOut',
    summary: 'Destroy the session',
    tag: 'Identity',
    auth: 'user',
    success: { status: 204, description: 'Signed out' },
    handle: async ({ identity, db }) => {
      await logout(identity, db);
      return new Reply(204, undefined, {}, { token: null });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/session',
    operationId: 'getSession',
    summary: 'The signed-in user and their organizations',
    tag: 'Identity',
    auth: 'user',
    success: { status: 200, description: 'The session', schema: sessionSchema },
    handle: ({ identity }) => currentSession(identity),
  }),
  defineRoute({
    method: 'post',
    path: '/orgs',
    operationId: 'createOrganization',
    summary: 'Create an organization owned by the caller',
    tag: 'Organizations',
    auth: 'user',
    body: createOrganizationBodySchema,
    success: { status: 201, description: 'The organization', schema: organizationSchema },
    handle: async ({ identity, body, db }) => toOrganization(await createOrganization(identity, body, db)),
  }),
  defineRoute({
    method: 'get',
    path: '/orgs/{orgUlid}',
    operationId: 'getOrganization',
    summary: 'An organization the caller belongs to',
    tag: 'Organizations',
    auth: 'org',
    orgParam: 'orgUlid',
    openWhileSuspended: true,
    params: orgPathSchema,
    success: { status: 200, description: 'The organization', schema: organizationSchema },
    errors: [404],
    handle: async ({ ctx }) => toOrganization(await getOrganization(ctx)),
  }),
];
