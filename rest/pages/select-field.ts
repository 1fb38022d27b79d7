import { type Html, html } from './html.ts';

export type SelectOptions = {
  /** The select's name; its id is `field-{name}`, which an error summary links to. */
  name: string;
  label: string;
  choices: Array<{ value: string; label: string }>;
  /** The chosen value; the first choice when none is. */
  value?: string | undefined;
};

/** A labelled choice among a few values (an organization, a role). */
export function selectField(options: SelectOptions): Html {
  const id = `field-${options.name}`;
  const choices = options.choices.map(
    (choice) => html`<option value="${choice.value}"${choice.value === options.value ? html` selected` : null}>${choice.label}</option>`,
  );
  return html`<div class="field"><label for="${id}">${options.label}</label><select id="${id}" name="${options.name}">${choices}</select></div>`;
}
