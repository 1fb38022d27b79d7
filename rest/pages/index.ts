import { accountPage } from './account.page.ts';
import { dashboardPage } from './dashboard.page.ts';
import { homePage } from './home.page.ts';
import { invitationPage } from './invitation.page.ts';
import type { PageDefinition } from './page.ts';
import { confirmPasswordResetPage, passwordResetPage } from './password-reset.pages.ts';
import { signInPage, signOutPage, signUpPage } from './sign-in.pages.ts';
import { verifyEmailPage } from './verify-email.page.ts';

/** Every page for people (contract decisions §19), served by `pagesRouter`. */
export const pages: PageDefinition[] = [
  homePage,
  signInPage,
  signUpPage,
  signOutPage,
  invitationPage,
  verifyEmailPage,
  passwordResetPage,
  confirmPasswordResetPage,
  accountPage,
  dashboardPage,
];
