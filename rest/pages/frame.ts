import { displayName } from '../../src/foundation/context.ts';
import { Html, html } from './html.ts';
import type { FieldError, PageAnswer, PageRequest } from './page.ts';
import { csrfField } from './page.ts';
import { FRAME } from './texts.ts';

/** Colours keep at least 4.5:1 contrast on white; focus is always visible. */
export const STYLE = `
*{box-sizing:border-box}
body{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff;margin:0}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:1}
header{border-bottom:1px solid #d0d7de;background:#f6f8fa}
nav{max-width:48rem;margin:0 auto;padding:.5rem 1rem;display:flex;gap:1rem;align-items:center;flex-wrap:wrap}
nav .home{font-weight:700;margin-right:auto}
nav form{margin:0}
main{max-width:48rem;margin:0 auto;padding:1rem}
h1{font-size:1.7rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
a{color:#0550ae}
a:focus,button:focus,input:focus,select:focus,main:focus{outline:3px solid #0969da;outline-offset:2px}
.field{margin:0 0 1rem}.field label{display:block;font-weight:600}
.hint{color:#57606a;margin:0;font-size:.9rem}
input,select{font:inherit;padding:.4rem;border:1px solid #57606a;border-radius:4px;max-width:100%;width:24rem}
input[type=checkbox],input[type=radio]{width:auto}
input[aria-invalid=true]{border:2px solid #a40e26}
button{font:inherit;padding:.45rem 1rem;border-radius:4px;border:1px solid #1f2328;background:#1f6feb;color:#fff;cursor:pointer}
button.secondary,nav button{background:#fff;color:#1f2328}
.field-error{color:#a40e26;font-weight:600;margin:0}
.error-summary{border:3px solid #a40e26;padding:.5rem 1rem;margin:0 0 1rem}
.error-summary h2{margin:.25rem 0}
.notice{border-left:4px solid #1a7f37;padding:.5rem 1rem;background:#dafbe1}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#f6f8fa;padding:.5rem;border:1px solid #d0d7de}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d0d7de;padding:.4rem .5rem;text-align:left}
th{background:#f6f8fa}`;

/** The error summary: announced on load (role=alert), each entry a link to its field. */
export function errorSummary(page: PageRequest, errors: FieldError[] | undefined): Html | null {
  if (!errors?.length) return null;
  const items = errors.map((error) =>
    error.field ? html`<li><a href="#field-${error.field}">${error.message}</a></li>` : html`<li>${error.message}</li>`,
  );
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title"><h2 id="error-summary-title">${FRAME[page.locale].problem}</h2><ul>${items}</ul></div>`;
}

/** A sentence that says what just happened, read out when the page loads. */
export const notice = (sentence: string) => html`<p class="notice" role="status">${sentence}</p>`;

/** A value a form carries back unseen (the token of a mailed link). */
export const hiddenField = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}">`;

export type FieldOptions = {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'date' | 'search';
  value?: string | undefined;
  autocomplete?: string;
  hint?: string;
  required?: boolean;
  readonly?: boolean;
  errors?: FieldError[] | undefined;
};

/** A labelled input; its hint and its error are read with it (aria-describedby). */
export function field(options: FieldOptions): Html {
  const id = `field-${options.name}`;
  const error = options.errors?.find((each) => each.field === options.name);
  const described = [options.hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field"><label for="${id}">${options.label}</label>${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : null}${
    error ? html`<p class="field-error" id="${id}-error">${error.message}</p>` : null
  }<input id="${id}" name="${options.name}" type="${options.type ?? 'text'}"${options.value === undefined ? null : html` value="${options.value}"`}${
    options.autocomplete ? html` autocomplete="${options.autocomplete}"` : null
  }${options.required ? html` required` : null}${options.readonly ? html` readonly` : null}${error ? html` aria-invalid="true"` : null}${
    described ? html` aria-describedby="${described}"` : null
  }></div>`;
}

/** A form posting to `action` (the page itself by default), with its CSRF token. */
export function postForm(page: PageRequest, content: Html, options: { action?: string; label?: string } = {}): Html {
  return html`<form method="post"${options.action ? html` action="${options.action}"` : null}${
    options.label ? html` aria-label="${options.label}"` : null
  }>${csrfField(page)}${content}</form>`;
}

function navigation(page: PageRequest): Html {
  const text = FRAME[page.locale];
  const signedIn = page.identity
    ? html`<span>${displayName(page.identity.user)}</span><a href="/account">${text.account}</a>${postForm(
        page,
        html`<button type="submit">${text.signOut}</button>`,
        { action: '/signout' },
      )}`
    : html`<a href="/signin">${text.signIn}</a><a href="/signup">${text.signUp}</a>`;
  return html`<header><nav aria-label="tcms"><a class="home" href="/">tcms</a><a href="/docs">${text.apiDocs}</a>${signedIn}</nav></header>`;
}

/** The whole document of a page's answer. */
export function frame(page: PageRequest, nonce: string, answer: Extract<PageAnswer, { title: string }>): Html {
  return html`<!doctype html><html lang="${page.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${answer.title} · tcms</title><style nonce="${nonce}">${new Html(STYLE + (answer.style ?? ''))}</style></head><body><a class="skip" href="#main">${FRAME[page.locale].skip}</a>${navigation(
    page,
  )}<main id="main" tabindex="-1"><h1>${answer.title}</h1>${errorSummary(page, answer.errors)}${answer.body}</main>${
    answer.script ? html`<script nonce="${nonce}">${new Html(answer.script)}</script>` : null
  }</body></html>`;
}
