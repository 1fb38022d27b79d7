import { z } from 'zod';
import { emailSchema } from '../foundation/auth/auth.schemas.ts';
import { membershipSchema, organizationSchema } from '../orgs/orgs.schemas.ts';

/** Signing up, signing in, the session and resetting a password (contract §1, §18, §19). */

/** A new password: signup's rules, which a password reset follows too. */
const newPasswordSchema = z.string().min(8).max(200);

export const signupBodySchema = z
  .strictObject({
    email: emailSchema,
    password: newPasswordSchema,
    firstName: z.string().trim().min(1).max(100),
    lastName: z.string().trim().min(1).max(100),
    organizationName: z.string().trim().min(1).max(200).optional(),
    invitationToken: z.string().min(1).max(200).optional().meta({
      description:
        'The token of an invitation to this email: the new user joins the inviting organization instead of getting one of their own',
    }),
    challengeToken: z.string().min(1).max(4096).optional().meta({
      description:
        "The bot check's answer (a siteverify-compatible widget's token); required when the service is configured with a verifier",
    }),
  })
  .meta({
    id: 'SignupRequest',
    example: {
      email: 'ada@example.com',
      password: 'correct horse battery staple',
      firstName: 'Ada',
      lastName: 'Lovelace',
      organizationName: 'Analytical Engines',
    },
  });
export type SignupInput = z.output<typeof signupBodySchema>;

export const loginBodySchema = z.strictObject({ email: emailSchema, password: z.string().min(1).max(200) }).meta({ id: 'LoginRequest' });
export type LoginInput = z.output<typeof loginBodySchema>;

export const userSchema = z
  .object({
    ulid: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    avatarKey: z.string().nullable(),
    emailVerified: z.boolean().meta({
      description:
        "The address is proven: by the verification mail's token, by signing up with an invitation token, or by resetting the password",
    }),
  })
  .meta({ id: 'User' });

export const verifyEmailBodySchema = z.strictObject({ token: z.string().min(1).max(200) }).meta({ id: 'VerifyEmailRequest' });

export const verifiedUserSchema = z.object({ user: userSchema }).meta({ id: 'VerifiedUser' });

export const passwordResetBodySchema = z.strictObject({ email: emailSchema }).meta({ id: 'PasswordResetRequest' });

export const confirmPasswordResetBodySchema = z
  .strictObject({
    token: z.string().min(1).max(200).meta({ description: 'The token of the password reset mail' }),
    password: newPasswordSchema,
  })
  .meta({
    id: 'ConfirmPasswordResetRequest',
    example: { token: 'q9J1yX0rT3mD4fW8nB6vK2cH7sL5aE0uZ1pG9oR4iY8', password: 'a brand new passphrase' },
  });

export const sessionSchema = z.object({ user: userSchema, organizations: z.array(membershipSchema) }).meta({ id: 'Session' });

export const signupResponseSchema = sessionSchema.extend({ organization: organizationSchema }).meta({ id: 'SignupResponse' });

/** A person's own names, as signup takes them (the pages' /account edits them). */
export const profileBodySchema = signupBodySchema.pick({ firstName: true, lastName: true });
export type ProfileInput = z.output<typeof profileBodySchema>;
