import { organizationsOf } from '../../src/accounts/accounts.service.ts';
import type { Locale } from '../../src/kernel/i18n.ts';
import {
  BURN_UP_QUERY,
  FLAKY_TESTS_QUERY,
  OPEN_PLANS_QUERY,
  PASS_RATE_TREND_QUERY,
  PROJECTS_QUERY,
  RUN_PROGRESS_SUBSCRIPTION,
  RUNS_IN_PROGRESS_QUERY,
  TOP_FAILING_QUERY,
} from './dashboard.queries.ts';
import { DASHBOARD_SCRIPT } from './dashboard.script.ts';
import { type Html, html } from './html.ts';
import type { PageDefinition, PageRequest } from './page.ts';
import type { Texts } from './texts.ts';

/**
 * `/dashboard`: an organization's projects, open plans, runs in progress (live), and a project's
 * pass-rate trend, burn-up, top failing and flaky tests. The server sends the frame and each
 * panel's GraphQL query; the page's script sends those queries to the public `/graphql` with the
 * session cookie and draws the answers (dashboard.script.ts), so the page uses nothing an
 * integrator's own dashboard could not.
 */

const TEXT = {
  en: {
    title: 'Dashboard',
    intro:
      'Every panel is read from the public GraphQL API (POST /graphql) with your session; the query beside it is exactly what it sends. Copy one to build your own dashboard: with an API token, send it with the header Authorization: Bearer <token>.',
    links: 'Runs, plans and test cases link to their resource in the REST API, which your browser reads with your session.',
    organization: 'Organization:',
    organizations: 'Your organizations',
    loading: 'Loading…',
    projects: 'Projects',
    plans: 'Open plans',
    live: 'Runs in progress',
    liveHint: 'The newest runs in progress follow every result as it is marked, one subscription per run.',
    reports: 'Reports of a project',
    reportsHint: 'Over the last 30 days, in the days of your time zone.',
    project: 'Project',
    burnUpOf: 'Burn-up of',
    trend: 'Pass-rate trend',
    burnUp: 'Burn-up',
    failing: 'Top failing tests',
    flaky: 'Flaky tests',
    query: 'GraphQL query',
    subscription: 'GraphQL subscription',
    variables: 'Variables',
    copyQuery: 'Copy this query',
    copySubscription: 'Copy this subscription',
  },
  es: {
    title: 'Panel',
    intro:
      'Cada sección se lee de la API GraphQL pública (POST /graphql) con tu sesión; la consulta que tiene al lado es exactamente la que envía. Cópiala para crear tu propio panel: con un token de API, envíala con la cabecera Authorization: Bearer <token>.',
    links: 'Las ejecuciones, los planes y los casos de prueba enlazan a su recurso en la API REST, que tu navegador lee con tu sesión.',
    organization: 'Organización:',
    organizations: 'Tus organizaciones',
    loading: 'Cargando…',
    projects: 'Proyectos',
    plans: 'Planes abiertos',
    live: 'Ejecuciones en curso',
    liveHint: 'Las ejecuciones en curso más recientes siguen cada resultado en cuanto se marca, con una suscripción por ejecución.',
    reports: 'Informes de un proyecto',
    reportsHint: 'De los últimos 30 días, por días de tu zona horaria.',
    project: 'Proyecto',
    burnUpOf: 'Burn-up de',
    trend: 'Evolución de la tasa de aprobados',
    burnUp: 'Burn-up',
    failing: 'Pruebas que más fallan',
    flaky: 'Pruebas inestables',
    query: 'Consulta GraphQL',
    subscription: 'Suscripción GraphQL',
    variables: 'Variables',
    copyQuery: 'Copiar esta consulta',
    copySubscription: 'Copiar esta suscripción',
  },
} satisfies Texts<string>;

/** The sentences the script writes; `{name}` is filled in the browser. */
const SCRIPT_TEXT_EN = {
  failed: 'This panel could not be read: {message}',
  copied: 'Copied.',
  copySelected: 'The query is selected: copy it with your keyboard.',
  showTable: 'The data as a table',
  statuses: { passed: 'Passed', failed: 'Failed', blocked: 'Blocked', skipped: 'Skipped', untested: 'Untested' },
  planStatuses: { draft: 'draft', active: 'active' },
  stats: { cases: 'Cases', runs: 'Runs', runsInProgress: 'In progress', milestones: 'Milestones', defectsUnresolved: 'Open defects' },
  project: 'Project',
  projectsCaption: 'Projects and their counts',
  moreProjects: 'The first {shown} of {total} projects.',
  noProjects: 'No projects yet.',
  noPlans: 'No open plans.',
  planProgress: '{executed} of {total} cases executed; {closed} of {runs} runs closed.',
  noRuns: 'No runs in progress.',
  runProgress: '{executed} of {total} executed, pass rate {passRate}.',
  runClosed: 'The run is closed.',
  moreRuns: 'The newest {shown} of {total} runs in progress.',
  following: 'Following {count} runs live.',
  stopped: 'Live updates stopped for {count} runs: reload the page to follow them again.',
  trendTitle: 'Pass rate per day',
  passRate: 'Pass rate',
  day: 'Day',
  noTrend: 'No passed, failed or blocked result in these 30 days.',
  trendDescription:
    'From {from} to {to}, {days} days with results: the latest pass rate {latest}, the lowest {lowest}, the highest {highest}.',
  wholeProject: 'every run of the project',
  burnUpTitle: 'Cases executed at the end of each day',
  scope: 'Cases in the runs',
  executed: 'Executed',
  closedRuns: 'Runs closed',
  noBurnUp: 'No run cases in these 30 days.',
  burnUpDescription: 'On {date}: {executed} of {scope} cases executed, {passed} passed.',
  testCase: 'Test case',
  suite: 'Suite',
  failures: 'Failures',
  failureRate: 'Failure rate',
  lastFailure: 'Last failure',
  failingCaption: 'Cases with the most failures in the last 30 days',
  noFailing: 'No failures in the last 30 days.',
  flips: 'Flips',
  flakyRate: 'Flaky rate',
  runs: 'Runs',
  flakyCaption: 'Cases whose results flip between passed and failed',
  noFlaky: 'No flaky tests.',
};

const SCRIPT_TEXT: Record<Locale, typeof SCRIPT_TEXT_EN> = {
  en: SCRIPT_TEXT_EN,
  es: {
    failed: 'No se pudo leer esta sección: {message}',
    copied: 'Copiada.',
    copySelected: 'La consulta está seleccionada: cópiala con el teclado.',
    showTable: 'Los datos en una tabla',
    statuses: { passed: 'Superados', failed: 'Fallidos', blocked: 'Bloqueados', skipped: 'Omitidos', untested: 'Sin probar' },
    planStatuses: { draft: 'borrador', active: 'activo' },
    stats: { cases: 'Casos', runs: 'Ejecuciones', runsInProgress: 'En curso', milestones: 'Hitos', defectsUnresolved: 'Defectos abiertos' },
    project: 'Proyecto',
    projectsCaption: 'Los proyectos y sus cifras',
    moreProjects: 'Los primeros {shown} de {total} proyectos.',
    noProjects: 'Todavía no hay proyectos.',
    noPlans: 'No hay planes abiertos.',
    planProgress: '{executed} de {total} casos ejecutados; {closed} de {runs} ejecuciones cerradas.',
    noRuns: 'No hay ejecuciones en curso.',
    runProgress: '{executed} de {total} ejecutados, tasa de aprobados {passRate}.',
    runClosed: 'La ejecución está cerrada.',
    moreRuns: 'Las {shown} más recientes de {total} ejecuciones en curso.',
    following: 'Se siguen en directo {count} ejecuciones.',
    stopped: 'Se dejaron de seguir {count} ejecuciones: recarga la página para seguirlas de nuevo.',
    trendTitle: 'Tasa de aprobados por día',
    passRate: 'Tasa de aprobados',
    day: 'Día',
    noTrend: 'No hay resultados superados, fallidos ni bloqueados en estos 30 días.',
    trendDescription:
      'Del {from} al {to}, {days} días con resultados: la última tasa de aprobados es {latest}, la más baja {lowest} y la más alta {highest}.',
    wholeProject: 'todas las ejecuciones del proyecto',
    burnUpTitle: 'Casos ejecutados al final de cada día',
    scope: 'Casos de las ejecuciones',
    executed: 'Ejecutados',
    closedRuns: 'Ejecuciones cerradas',
    noBurnUp: 'No hay casos en ejecuciones en estos 30 días.',
    burnUpDescription: 'El {date}: {executed} de {scope} casos ejecutados, {passed} superados.',
    testCase: 'Caso de prueba',
    suite: 'Suite',
    failures: 'Fallos',
    failureRate: 'Tasa de fallos',
    lastFailure: 'Último fallo',
    failingCaption: 'Los casos con más fallos en los últimos 30 días',
    noFailing: 'No hay fallos en los últimos 30 días.',
    flips: 'Cambios',
    flakyRate: 'Tasa de inestabilidad',
    runs: 'Ejecuciones',
    flakyCaption: 'Casos cuyos resultados alternan entre superado y fallido',
    noFlaky: 'No hay pruebas inestables.',
  },
};

/**
 * Browsers open at most 6 connections to one server over HTTP/1.1 and each subscription holds
 * one: following more runs would leave the queries waiting.
 */
const LIVE_RUNS_MAX = 4;

const STYLE = `
nav,main{max-width:76rem}
.intro{max-width:48rem}
.panel{border-top:1px solid #d0d7de;margin-top:1.5rem}
.panel-body{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:1.5rem;align-items:start}
@media (max-width:60rem){.panel-body{grid-template-columns:minmax(0,1fr)}}
.query pre{font:13px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #d0d7de;padding:.5rem;margin:.25rem 0 .5rem}
.query .label{font-weight:600;margin:0}
.scroll{overflow-x:auto}
caption{text-align:left;font-weight:600;padding:.25rem 0}
.chart{width:100%;max-width:40rem;height:auto;display:block}
figure{margin:0}
.bar{width:100%;max-width:24rem;height:.75rem;display:block;margin:.25rem 0}
ul.items{list-style:none;padding:0;margin:0}ul.items li{padding:.5rem 0;border-bottom:1px solid #d0d7de}ul.items p{margin:0}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem;margin:.5rem 0}ul.legend svg{vertical-align:middle;margin-right:.3rem}
.muted{color:#57606a}.panel-error{color:#a40e26;font-weight:600}
details{margin:.5rem 0}summary{cursor:pointer;color:#0550ae}
[tabindex]:focus,summary:focus{outline:3px solid #0969da;outline-offset:2px}
.choices{display:flex;flex-wrap:wrap;gap:1rem}.choices .field{margin:0}.choices select{width:auto}`;

/** A GraphQL document a panel sends, shown as it is sent; `variables`: the script shows the ones it sends with it. */
type PanelDocument = { kind: 'query' | 'subscription'; text: string; variables?: boolean };

type Panel = { id: string; heading: string; documents: PanelDocument[]; hint?: Html };

/** A document beside its panel (`<id>-<kind>`, which the script reads and sends) and a button copying it. */
function shownDocument(page: PageRequest, panelId: string, document: PanelDocument): Html {
  const text = TEXT[page.locale];
  const id = `${panelId}-${document.kind}`;
  const variables = document.variables ? html`<p class="label">${text.variables}</p><pre><code id="${id}-variables"></code></pre>` : null;
  return html`<p class="label">${text[document.kind]}</p><pre><code id="${id}">${document.text}</code></pre>${variables}<p><button type="button" class="secondary" data-copy="${id}" aria-describedby="${panelId}-title">${
    document.kind === 'query' ? text.copyQuery : text.copySubscription
  }</button> <span id="${id}-copied" role="status"></span></p>`;
}

/** A panel: its content, drawn by the script, beside the documents that read it. */
function panel(page: PageRequest, level: 'h2' | 'h3', options: Panel): Html {
  const { id } = options;
  const heading = level === 'h2' ? html`<h2 id="${id}-title">${options.heading}</h2>` : html`<h3 id="${id}-title">${options.heading}</h3>`;
  return html`<section class="panel" aria-labelledby="${id}-title">${heading}${options.hint ?? null}<div class="panel-body"><div id="${id}-content"><p>${
    TEXT[page.locale].loading
  }</p></div><div class="query">${options.documents.map((document) => shownDocument(page, id, document))}</div></div></section>`;
}

/** Links choosing the organization the panels read (the X-Organization-Id the script sends), for a person in more than one. */
function organizationChoice(
  page: PageRequest,
  organizations: Array<{ ulid: string; name: string }>,
  chosen: string | undefined,
): Html | null {
  if (organizations.length < 2) return null;
  const items = organizations.map((org) =>
    org.ulid === chosen
      ? html`<li><a href="/dashboard?org=${org.ulid}" aria-current="page">${org.name}</a></li>`
      : html`<li><a href="/dashboard?org=${org.ulid}">${org.name}</a></li>`,
  );
  return html`<nav aria-label="${TEXT[page.locale].organizations}"><ul>${items}</ul></nav>`;
}

/** A labelled select the script fills and enables once the projects are read. */
const choice = (id: string, label: string) =>
  html`<div class="field"><label for="${id}">${label}</label><select id="${id}" disabled></select></div>`;

export const dashboardPage: PageDefinition = {
  path: '/dashboard',
  audience: 'signed-in',
  async get(page) {
    const text = TEXT[page.locale];
    const organizations = await organizationsOf(page.identity!.user.id);
    const chosen = organizations.find((org) => org.ulid === page.query.org)?.ulid;
    const report = (id: string, heading: string, query: string) =>
      panel(page, 'h3', { id, heading, documents: [{ kind: 'query', text: query, variables: true }] });
    const intro = html`<div class="intro"><p>${text.organization} <strong id="organization-name"></strong></p>${organizationChoice(
      page,
      organizations,
      chosen,
    )}<p>${text.intro}</p><p>${text.links}</p></div>`;
    const projects = panel(page, 'h2', { id: 'projects', heading: text.projects, documents: [{ kind: 'query', text: PROJECTS_QUERY }] });
    const plans = panel(page, 'h2', { id: 'plans', heading: text.plans, documents: [{ kind: 'query', text: OPEN_PLANS_QUERY }] });
    const live = panel(page, 'h2', {
      id: 'live',
      heading: text.live,
      documents: [
        { kind: 'query', text: RUNS_IN_PROGRESS_QUERY },
        { kind: 'subscription', text: RUN_PROGRESS_SUBSCRIPTION, variables: true },
      ],
      hint: html`<p>${text.liveHint}</p><p id="live-status" role="status"></p>`,
    });
    const reports = html`<section aria-labelledby="reports-title"><h2 id="reports-title">${text.reports}</h2><p>${text.reportsHint}</p><div class="choices">${choice(
      'report-project',
      text.project,
    )}${choice('burn-up-plan', text.burnUpOf)}</div>${[
      report('trend', text.trend, PASS_RATE_TREND_QUERY),
      report('burn-up', text.burnUp, BURN_UP_QUERY),
      report('failing', text.failing, TOP_FAILING_QUERY),
      report('flaky', text.flaky, FLAKY_TESTS_QUERY),
    ]}</section>`;
    return {
      title: text.title,
      style: STYLE,
      script: DASHBOARD_SCRIPT,
      body: html`<div id="dashboard" data-texts="${JSON.stringify(SCRIPT_TEXT[page.locale])}" data-organization="${chosen ?? ''}" data-live-runs="${LIVE_RUNS_MAX}">${intro}${projects}${plans}${live}${reports}</div>`,
    };
  },
};
