import type { ConsentChoices } from '../src/oauth/oauth.service.ts';
import { hiddenField, postForm } from './pages/frame.ts';
import { html } from './pages/html.ts';
import type { PageAnswer, PageRequest } from './pages/page.ts';
import { ROLE_NAMES } from './pages/role-names.ts';
import { selectField } from './pages/select-field.ts';
import { fill, type Texts } from './pages/texts.ts';

/** The consent page of the authorization endpoint (contract §16), in the frame of the pages for people. */

const TEXT = {
  en: {
    title: 'Authorize {client}',
    signedInAs: 'Signed in as {email}.',
    asks: '{client} asks to act for you in one organization, with your role there (at most admin), until you or an administrator revoke it.',
    organization: 'Organization',
    choice: '{organization} (as {role})',
    approve: 'Approve',
    deny: 'Deny',
    noOrganizationTitle: 'No organization',
    noOrganization: 'You belong to no active organization in which {client} could act.',
  },
  es: {
    title: 'Autorizar a {client}',
    signedInAs: 'Has iniciado sesión como {email}.',
    asks: '{client} pide actuar en tu nombre en una organización, con tu rol en ella (como mucho administrador), hasta que tú o un administrador lo revoquéis.',
    organization: 'Organización',
    choice: '{organization} (como {role})',
    approve: 'Autorizar',
    deny: 'Denegar',
    noOrganizationTitle: 'Ninguna organización',
    noOrganization: 'No perteneces a ninguna organización activa en la que {client} pueda actuar.',
  },
} satisfies Texts<string>;

/**
 * The consent form posts the authorization request's own parameters back to the same endpoint,
 * with the chosen organization and the decision.
 */
export function consentPage(page: PageRequest, client: string, choices: ConsentChoices, request: Record<string, string>): PageAnswer {
  const text = TEXT[page.locale];
  if (choices.organizations.length === 0) {
    return { title: text.noOrganizationTitle, body: html`<p>${fill(text.noOrganization, { client })}</p>` };
  }
  const hidden = Object.entries(request).map(([name, value]) => hiddenField(name, value));
  const organizations = choices.organizations.map((org) => ({
    value: org.ulid,
    label: fill(text.choice, { organization: org.name, role: ROLE_NAMES[page.locale][org.role] }),
  }));
  return {
    title: fill(text.title, { client }),
    body: html`<p>${fill(text.signedInAs, { email: choices.user.email })}</p><p>${fill(text.asks, { client })}</p>${postForm(
      page,
      html`${hidden}${selectField({ name: 'organizationUlid', label: text.organization, choices: organizations })}<button type="submit" name="approve" value="true">${
        text.approve
      }</button> <button type="submit" class="secondary" name="approve" value="false">${text.deny}</button>`,
    )}`,
  };
}
