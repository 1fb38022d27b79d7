import { organizationsOf } from '../../src/accounts/accounts.service.ts';
import type { RequestContext } from '../../src/foundation/context.ts';
import { settings } from '../../src/kernel/config.ts';
import { AppError } from '../../src/kernel/errors.ts';
import { validate } from '../../src/kernel/validation.ts';
import { projectListQuerySchema } from '../../src/projects/projects.schemas.ts';
import { listProjects } from '../../src/projects/projects.service.ts';
import { type Html, html } from './html.ts';
import { enterOrganization, type PageDefinition, type PageRequest } from './page.ts';
import { FRAME, fill, type Texts } from './texts.ts';

/** `/`: what tcms is for a stranger; a signed-in person's organizations and their projects. */

const TEXT = {
  en: {
    title: 'tcms',
    welcome: 'Welcome',
    pitch:
      'tcms keeps your test cases, plans and runs. CI jobs push their results into it; dashboards and reporting tools read progress out of it, through a REST and a GraphQL API.',
    start: 'Sign in, or create an account: you get an organization of your own to start with.',
    organizations: 'Your organizations',
    noProjects: 'No projects yet.',
    role: 'your role: {role}',
    tools: 'Tools',
    dashboard: 'Dashboard: projects, plans, live runs and reports',
    graphql: 'GraphQL (GraphiQL, in development)',
    more: 'and {count} more',
    closed: 'You cannot work in this organization at the moment: it or your membership is suspended.',
    ci: 'Upload results from CI',
    ciHow:
      "A CI job with Node.js 20.19 or newer uploads its test runner's JUnit or CTRF reports with the client this server serves, given an API token (made on your account page) and your project's code in place of WEB:",
    token: 'API token',
  },
  es: {
    title: 'tcms',
    welcome: 'Te damos la bienvenida',
    pitch:
      'tcms guarda tus casos de prueba, planes y ejecuciones. Los trabajos de CI envían sus resultados; los paneles y las herramientas de informes leen el progreso, mediante una API REST y una GraphQL.',
    start: 'Inicia sesión o crea una cuenta: para empezar, tendrás una organización propia.',
    organizations: 'Tus organizaciones',
    noProjects: 'Todavía no hay proyectos.',
    role: 'tu rol: {role}',
    tools: 'Herramientas',
    dashboard: 'Panel: proyectos, planes, ejecuciones en directo e informes',
    graphql: 'GraphQL (GraphiQL, en desarrollo)',
    more: 'y {count} más',
    closed: 'Ahora no puedes trabajar en esta organización: está suspendida, o lo está tu pertenencia a ella.',
    ci: 'Subir resultados desde CI',
    ciHow:
      'Un trabajo de CI con Node.js 20.19 o posterior sube los informes JUnit o CTRF de su ejecutor de pruebas con el cliente que sirve este servidor, con un token de API (se crea en tu página de cuenta) y el código de tu proyecto en lugar de WEB:',
    token: 'token de API',
  },
} satisfies Texts<string>;

const PROJECTS_SHOWN = 50;

async function organizationSection(page: PageRequest, org: { ulid: string; name: string; role: string }): Promise<Html> {
  const text = TEXT[page.locale];
  const heading = html`<h3 id="org-${org.ulid}">${org.name}</h3>`;
  let ctx: RequestContext;
  try {
    ctx = await enterOrganization(page, org.ulid);
  } catch (error) {
    // A suspended membership or organization: the others are still shown.
    if (!(error instanceof AppError)) throw error;
    return html`<section aria-labelledby="org-${org.ulid}">${heading}<p>${text.closed}</p></section>`;
  }
  const projects = await listProjects(ctx, validate(projectListQuerySchema, { pageSize: String(PROJECTS_SHOWN) }));
  const items = projects.items.map((project) => html`<li>${project.id}: ${project.name}</li>`);
  const rest = projects.total - projects.items.length;
  return html`<section aria-labelledby="org-${org.ulid}">${heading}<p>${fill(text.role, { role: org.role })}</p>${
    items.length ? html`<ul>${items}</ul>` : html`<p>${text.noProjects}</p>`
  }${rest > 0 ? html`<p>${fill(text.more, { count: rest })}</p>` : null}</section>`;
}

/** How a CI job uploads its reports with the client this server serves (rest/downloads.ts); `.secret`: monospace, wrapped. */
function ciSection(page: PageRequest): Html {
  const text = TEXT[page.locale];
  const variables = `export TCMS_URL=${settings().publicUrl} TCMS_TOKEN='<${text.token}>'`;
  const upload = `npx --yes "$TCMS_URL/downloads/tcms-cli.tgz" results upload 'reports/*.xml' --project WEB`;
  return html`<h2>${text.ci}</h2><p>${text.ciHow}</p><p class="secret">${variables}<br>${upload}</p>`;
}

export const homePage: PageDefinition = {
  path: '/',
  async get(page) {
    const text = TEXT[page.locale];
    if (!page.identity) {
      return {
        title: text.title,
        body: html`<p>${text.pitch}</p><p>${text.start}</p><p><a href="/signin">${FRAME[page.locale].signIn}</a> · <a href="/signup">${FRAME[page.locale].signUp}</a></p>${ciSection(page)}`,
      };
    }
    const organizations = await organizationsOf(page.identity.user.id);
    const sections = await Promise.all(organizations.map((org) => organizationSection(page, org)));
    return {
      title: text.welcome,
      body: html`<h2>${text.organizations}</h2>${sections}<h2>${text.tools}</h2><ul><li><a href="/dashboard">${text.dashboard}</a></li><li><a href="/docs">${FRAME[page.locale].apiDocs}</a></li><li><a href="/graphql">${text.graphql}</a></li></ul>${ciSection(page)}`,
    };
  },
};
