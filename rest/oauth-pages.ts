import type { ConsentChoices } from '../src/oauth/oauth.service.ts';

/** The pages of the authorization endpoint: self-contained HTML (inline style, no script, no external asset). */

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** No framing (clickjacking of the approve button), nothing loaded from anywhere. */
export const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · tcms</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
button{font:inherit;padding:.4rem 1rem;margin-right:.5rem}select{font:inherit}code{background:#eee;padding:0 .2rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>
${body}
</body></html>`;

export const signInPage = (clientName: string) =>
  page(
    'Sign in to continue',
    `<p><strong>${escapeHtml(clientName)}</strong> asks to access tcms for you. You are not signed in.</p>
<p>Sign in with <code>POST /api/v1/auth/login</code> in this same browser, so that it holds the session cookie,
then reload this page.</p>`,
  );

export const errorPage = (message: string) => page('Authorization failed', `<p>${escapeHtml(message)}</p>`);

/**
 * The consent form posts the authorization request's own parameters back to the same endpoint,
 * with the chosen organization and the decision.
 */
export function consentPage(clientName: string, choices: ConsentChoices, request: Record<string, string | undefined>): string {
  const name = escapeHtml(clientName);
  const hidden = Object.entries(request)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`)
    .join('\n');
  if (choices.organizations.length === 0) {
    return page('No organization', `<p>You belong to no active organization in which <strong>${name}</strong> could act.</p>`);
  }
  const options = choices.organizations
    .map((org) => `<option value="${escapeHtml(org.ulid)}">${escapeHtml(org.name)} (as ${escapeHtml(org.role)})</option>`)
    .join('\n');
  return page(
    `Authorize ${clientName}`,
    `<p>Signed in as ${escapeHtml(choices.user.email)}.</p>
<p><strong>${name}</strong> asks to act for you in one organization, with your role there (at most admin),
until you or an administrator revoke it.</p>
<form method="post">
${hidden}
<p><label>Organization <select name="organizationUlid">
${options}
</select></label></p>
<p><button type="submit" name="approve" value="true">Approve</button><button type="submit" name="approve" value="false">Deny</button></p>
</form>`,
  );
}
