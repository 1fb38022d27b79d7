/**
 * The dashboard's inline script (rest/pages/dashboard.page.ts): it sends each panel's query, read
 * from the page where it is shown, to the public GraphQL endpoint with the session cookie, draws
 * the answers (tables, status bars, SVG line charts each with a description and a data table),
 * and follows the runs in progress with the runProgress subscription over Server-Sent Events.
 * Plain browser JavaScript, no library; sentences come from the page (`data-texts`).
 */
export const DASHBOARD_SCRIPT = String.raw`(() => {
  'use strict';
  const root = document.getElementById('dashboard');
  const text = JSON.parse(root.dataset.texts);
  const organization = root.dataset.organization;
  const liveRunsMax = Number(root.dataset.liveRuns);
  const locale = document.documentElement.lang;
  const STATUSES = ['passed', 'failed', 'blocked', 'skipped', 'untested'];
  // The share page's fills (at least 3:1 contrast on white) and two more for the burn-up; the text always says the numbers too.
  const COLOURS = { passed: '#1a7f37', failed: '#cf222e', blocked: '#9a6700', skipped: '#57606a', untested: '#6e7781', scope: '#0550ae', executed: '#8250df' };
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const byId = (id) => document.getElementById(id);
  const fill = (sentence, values) => sentence.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
  let timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

  function build(namespace, tag, attributes, children) {
    const node = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) if (value !== undefined && value !== null) node.setAttribute(name, String(value));
    node.append(...(children || []).filter((child) => child !== null && child !== undefined).map((child) => (typeof child === 'object' ? child : String(child))));
    return node;
  }
  const h = (tag, attributes, ...children) => build(null, tag, attributes, children);
  const svg = (tag, attributes, ...children) => build('http://www.w3.org/2000/svg', tag, attributes, children);
  const link = (href, label) => h('a', { href }, label);
  const runLink = (run) => link('/api/v1/runs/' + encodeURIComponent(run.ulid), run.name);
  const caseLink = (item) => link('/api/v1/test-cases/' + encodeURIComponent(item.caseUlid), item.displayId + ' ' + item.title);
  const sentenceOf = (counts) => STATUSES.map((status) => text.statuses[status] + ': ' + counts[status]).join(' · ');
  const sum = (counts) => STATUSES.reduce((total, status) => total + counts[status], 0);

  let tableCount = 0;
  /** A table with its caption, in a region that scrolls (and takes focus) when it is wider than the panel. */
  function table(caption, headings, rows) {
    const id = 'table-' + ++tableCount;
    return h('div', { class: 'scroll', role: 'region', tabindex: '0', 'aria-labelledby': id },
      h('table', {},
        h('caption', { id }, caption),
        h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
        h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, index) => (index === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))))))));
  }

  /** The counts as a stacked bar; hidden from assistive technology, which reads the sentence beside it. */
  function statusBar(counts) {
    const total = sum(counts);
    let x = 0;
    const parts = STATUSES.map((status) => {
      const width = total === 0 ? 0 : (counts[status] / total) * 100;
      const part = svg('rect', { 'data-status': status, x, y: 0, width, height: 12, fill: COLOURS[status] });
      x += width;
      return part;
    });
    return svg('svg', { class: 'bar', viewBox: '0 0 100 12', preserveAspectRatio: 'none', 'aria-hidden': 'true', focusable: 'false' },
      svg('rect', { x: 0, y: 0, width: 100, height: 12, fill: '#eaeef2' }), ...parts);
  }

  function legend(series) {
    return h('ul', { class: 'legend' }, ...series.map((each) =>
      h('li', {}, svg('svg', { width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false' }, svg('rect', { width: 14, height: 14, fill: each.colour })), each.label)));
  }

  let chartCount = 0;
  /** Lines over the buckets (null values leave a gap): an image named by its title, described by the sentence under it. */
  function lineChart({ title, description, labels, series, maxValue, formatValue }) {
    const id = 'chart-' + ++chartCount;
    const [width, height, left, right, top, bottom] = [600, 220, 52, 16, 12, 28];
    const plotWidth = width - left - right;
    const plotHeight = height - top - bottom;
    const xOf = (index) => left + (labels.length <= 1 ? plotWidth / 2 : (index * plotWidth) / (labels.length - 1));
    const yOf = (value) => top + plotHeight - (maxValue === 0 ? 0 : (value / maxValue) * plotHeight);
    const grid = [0, maxValue / 2, maxValue].flatMap((value) => [
      svg('line', { x1: left, x2: width - right, y1: yOf(value), y2: yOf(value), stroke: '#d0d7de' }),
      svg('text', { x: left - 6, y: yOf(value) + 4, 'text-anchor': 'end', 'font-size': 12, fill: '#57606a' }, formatValue(value)),
    ]);
    const ticks = [...new Set([0, Math.floor((labels.length - 1) / 2), labels.length - 1])].filter((index) => index >= 0).map((index) =>
      svg('text', { x: xOf(index), y: height - 8, 'text-anchor': index === 0 ? 'start' : index === labels.length - 1 ? 'end' : 'middle', 'font-size': 12, fill: '#57606a' }, labels[index]));
    const lines = series.flatMap((each) => {
      let path = '';
      let drawing = false;
      const dots = [];
      each.values.forEach((value, index) => {
        if (value === null) { drawing = false; return; }
        path += (drawing ? ' L' : ' M') + xOf(index).toFixed(1) + ' ' + yOf(value).toFixed(1);
        drawing = true;
        dots.push(svg('circle', { cx: xOf(index).toFixed(1), cy: yOf(value).toFixed(1), r: 3, fill: each.colour }));
      });
      return [svg('path', { d: path.trim(), fill: 'none', stroke: each.colour, 'stroke-width': 2, 'data-series': each.key }), ...dots];
    });
    return h('figure', {},
      svg('svg', { class: 'chart', id, viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-labelledby': id + '-title', 'aria-describedby': id + '-description' },
        svg('title', { id: id + '-title' }, title), ...grid, ...ticks, ...lines),
      h('figcaption', {}, legend(series), h('p', { id: id + '-description' }, description)));
  }

  /** The data behind a chart, for those who do not see it: a table, folded away. */
  const dataTable = (caption, headings, rows) => h('details', {}, h('summary', {}, text.showTable), table(caption, headings, rows));

  function headers(extra) {
    return { 'Content-Type': 'application/json', ...(organization ? { 'X-Organization-Id': organization } : {}), ...extra };
  }

  /** A request's body: the document shown in the element with the id shown, and the variables, shown as they are sent. */
  function requestOf(shown, variables) {
    const variablesShown = byId(shown + '-variables');
    if (variablesShown) variablesShown.textContent = JSON.stringify(variables, null, 2);
    return JSON.stringify({ query: byId(shown).textContent, variables });
  }

  async function ask(panel, variables = {}) {
    const response = await fetch('/graphql', { method: 'POST', headers: headers({ Accept: 'application/graphql-response+json, application/json' }), body: requestOf(panel + '-query', variables) });
    const answer = await response.json();
    if (answer.errors && answer.errors.length) {
      const error = new Error(answer.errors.map((each) => each.message).join(' '));
      error.code = answer.errors[0].extensions && answer.errors[0].extensions.code;
      throw error;
    }
    return answer.data;
  }

  const show = (panel, ...nodes) => byId(panel + '-content').replaceChildren(...nodes.filter((node) => node !== null));
  const note = (sentence) => h('p', {}, sentence);

  /** A report in the browser's time zone, or in UTC when the server does not know that zone's name. */
  async function askZoned(panel, variables) {
    try {
      return await ask(panel, { ...variables, timeZone });
    } catch (error) {
      if (error.code !== 'validation_failed' || timeZone === 'UTC') throw error;
      timeZone = 'UTC';
      return ask(panel, { ...variables, timeZone });
    }
  }

  /** Reads and draws one panel; a refusal is said in the panel, the others go on. */
  async function panel(name, variables, draw, inTimeZone = false) {
    const content = byId(name + '-content');
    content.setAttribute('aria-busy', 'true');
    try {
      draw(inTimeZone ? await askZoned(name, variables) : await ask(name, variables));
    } catch (error) {
      show(name, h('p', { class: 'panel-error' }, fill(text.failed, { message: error.message })));
    } finally {
      content.removeAttribute('aria-busy');
    }
  }

  const nodesOf = (connection) => connection.edges.map((edge) => edge.node);
  const dayFormat = () => new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone });

  // Projects, and the choice of the project the reports are about.
  let projects = [];
  function drawProjects(data) {
    byId('organization-name').textContent = data.organization.name;
    projects = nodesOf(data.projects);
    if (projects.length === 0) return show('projects', note(text.noProjects));
    const columns = ['cases', 'runs', 'runsInProgress', 'milestones', 'defectsUnresolved'];
    show('projects',
      table(text.projectsCaption, [text.project, ...columns.map((column) => text.stats[column])],
        projects.map((project) => [project.name + ' (' + project.code + ')', ...columns.map((column) => project.stats[column])])),
      data.projects.totalCount > projects.length ? note(fill(text.moreProjects, { shown: projects.length, total: data.projects.totalCount })) : null);
  }

  let openPlans = [];
  function drawPlans(data) {
    openPlans = data.projects.edges.flatMap(({ node: project }) =>
      nodesOf(project.plans).reverse().filter((plan) => plan.status !== 'completed').map((plan) => ({ ...plan, code: project.code })));
    if (openPlans.length === 0) return show('plans', note(text.noPlans));
    show('plans', h('ul', { class: 'items' }, ...openPlans.map((plan) => {
      const counts = plan.progress.counts;
      return h('li', { id: 'plan-' + plan.ulid },
        link('/api/v1/plans/' + encodeURIComponent(plan.ulid), plan.name), ' ', h('span', { class: 'muted' }, plan.code + ' · ' + text.planStatuses[plan.status]),
        statusBar(counts),
        h('p', {}, fill(text.planProgress, { executed: sum(counts) - counts.untested, total: sum(counts), closed: plan.progress.closedRuns, runs: plan.progress.totalRuns })),
        h('p', { class: 'counts' }, sentenceOf(counts)));
    })));
  }

  // Runs in progress, each followed by its own subscription.
  function runSummary(run) {
    return fill(text.runProgress, { executed: run.total - run.counts.untested, total: run.total, passRate: percent.format(run.passRate / 100) });
  }

  function showRun(item, run) {
    item.querySelector('.bar').replaceWith(statusBar(run.counts));
    item.querySelector('.summary').textContent = runSummary(run) + (run.state === 'open' ? '' : ' ' + text.runClosed);
    item.querySelector('.counts').textContent = sentenceOf(run.counts);
  }

  let followed = 0;
  let stopped = 0;
  const liveStatus = () => {
    byId('live-status').textContent = stopped === 0 ? fill(text.following, { count: followed }) : fill(text.stopped, { count: stopped });
  };

  /** Reads the subscription's Server-Sent Events (graphql-yoga's next events) until the stream ends. */
  async function follow(runUlid, item) {
    const response = await fetch('/graphql', { method: 'POST', headers: headers({ Accept: 'text/event-stream' }), body: requestOf('live-subscription', { runUlid }) });
    if (!response.ok || !response.body) throw new Error(String(response.status));
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value.replace(/\r\n/g, '\n');
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const lines = buffer.slice(0, end).split('\n');
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        if (!lines.includes('event: next')) continue;
        const payload = JSON.parse(lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5)).join('\n'));
        if (payload.data && payload.data.runProgress) showRun(item, payload.data.runProgress);
      }
    }
  }

  function drawRuns(data) {
    const all = data.projects.edges.flatMap(({ node: project }) => nodesOf(project.runs).map((run) => ({ ...run, code: project.code })));
    const total = data.projects.edges.reduce((count, { node: project }) => count + project.runs.totalCount, 0);
    const runs = all.sort((a, b) => b.createdAt - a.createdAt).slice(0, liveRunsMax);
    if (runs.length === 0) return show('live', note(text.noRuns));
    const items = runs.map((run) => {
      const item = h('li', { id: 'run-' + run.ulid }, runLink(run), ' ', h('span', { class: 'muted' }, run.code), statusBar(run.counts), h('p', { class: 'summary' }), h('p', { class: 'counts' }));
      showRun(item, run);
      return item;
    });
    show('live', h('ul', { class: 'items' }, ...items), total > runs.length ? note(fill(text.moreRuns, { shown: runs.length, total })) : null);
    followed = runs.length;
    liveStatus();
    runs.forEach((run, index) => {
      follow(run.ulid, items[index]).catch(() => {}).finally(() => { stopped++; liveStatus(); });
    });
  }

  // The reports of the chosen project.
  function drawTrend(data) {
    const trend = data.project.reports.trend;
    const days = dayFormat();
    const labels = trend.buckets.map((bucket) => days.format(bucket.start));
    const rated = trend.buckets.filter((bucket) => bucket.passRate !== null);
    if (rated.length === 0) return show('trend', note(text.noTrend));
    const rates = rated.map((bucket) => bucket.passRate);
    const description = fill(text.trendDescription, {
      from: labels[0], to: labels[labels.length - 1], days: rated.length,
      latest: percent.format(rates[rates.length - 1]), lowest: percent.format(Math.min(...rates)), highest: percent.format(Math.max(...rates)),
    });
    show('trend',
      lineChart({ title: text.trendTitle, description, labels, maxValue: 1, formatValue: (value) => percent.format(value),
        series: [{ key: 'passRate', label: text.passRate, colour: COLOURS.passed, values: trend.buckets.map((bucket) => bucket.passRate) }] }),
      dataTable(text.trendTitle, [text.day, text.passRate, text.statuses.passed, text.statuses.failed, text.statuses.blocked, text.statuses.skipped],
        rated.map((bucket) => [days.format(bucket.start), percent.format(bucket.passRate), bucket.passed, bucket.failed, bucket.blocked, bucket.skipped])));
  }

  function drawBurnUp(data) {
    // From the first day with cases in the runs: the days before would be a flat line at zero.
    const all = data.project.reports.burnUp.points;
    const points = all.slice(Math.max(0, all.findIndex((point) => sum(point) > 0)));
    const days = dayFormat();
    const labels = points.map((point) => days.format(point.start));
    const scope = points.map((point) => sum(point));
    if (Math.max(0, ...scope) === 0) return show('burn-up', note(text.noBurnUp));
    const executed = points.map((point) => sum(point) - point.untested);
    const last = points.length - 1;
    const description = fill(text.burnUpDescription, { date: labels[last], executed: executed[last], scope: scope[last], passed: points[last].passed });
    show('burn-up',
      lineChart({ title: text.burnUpTitle, description, labels, maxValue: Math.max(...scope), formatValue: (value) => String(Math.round(value)),
        series: [
          { key: 'scope', label: text.scope, colour: COLOURS.scope, values: scope },
          { key: 'executed', label: text.executed, colour: COLOURS.executed, values: executed },
          { key: 'passed', label: text.statuses.passed, colour: COLOURS.passed, values: points.map((point) => point.passed) },
        ] }),
      dataTable(text.burnUpTitle, [text.day, text.scope, text.executed, text.statuses.passed, text.closedRuns],
        points.map((point, index) => [labels[index], scope[index], executed[index], point.passed, point.closedRuns + ' / ' + point.totalRuns])));
  }

  function drawFailing(data) {
    const items = data.project.reports.failing.items.filter((item) => item.failures > 0);
    if (items.length === 0) return show('failing', note(text.noFailing));
    show('failing', table(text.failingCaption, [text.testCase, text.suite, text.failures, text.failureRate, text.lastFailure],
      items.map((item) => [caseLink(item), item.suitePath.join(' › '), item.failures, item.failureRate === null ? '' : percent.format(item.failureRate), item.lastFailureMessage || ''])));
  }

  function drawFlaky(data) {
    const items = data.project.flakyTests.items;
    if (items.length === 0) return show('flaky', note(text.noFlaky));
    show('flaky', table(text.flakyCaption, [text.testCase, text.flips, text.flakyRate, text.runs],
      items.map((item) => [caseLink(item), item.flips, percent.format(item.flakyRate), h('span', {}, ...item.runs.flatMap((run, index) => (index === 0 ? [runLink(run)] : [', ', runLink(run)])))])));
  }

  const projectChoice = byId('report-project');
  const planChoice = byId('burn-up-plan');
  const option = (value, label, selected) => { const node = h('option', { value }, label); node.selected = selected; return node; };

  const burnUp = () => panel('burn-up', { code: projectChoice.value, planUlid: planChoice.value || null }, drawBurnUp, true);

  function reports() {
    const code = projectChoice.value;
    const plans = openPlans.filter((plan) => plan.code === code);
    planChoice.replaceChildren(option('', text.wholeProject, plans.length === 0), ...plans.map((plan, index) => option(plan.ulid, plan.name, index === 0)));
    const address = new URL(location.href);
    address.searchParams.set('project', code);
    history.replaceState(null, '', address);
    panel('trend', { code }, drawTrend, true);
    burnUp();
    panel('failing', { code }, drawFailing);
    panel('flaky', { code }, drawFlaky);
  }

  document.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-copy]');
    if (!button) return;
    const source = byId(button.dataset.copy);
    const said = byId(button.dataset.copy + '-copied');
    try {
      await navigator.clipboard.writeText(source.textContent);
      said.textContent = text.copied;
    } catch {
      // Without clipboard access (a page not served over https), the query is selected for the person to copy.
      getSelection().selectAllChildren(source);
      said.textContent = text.copySelected;
    }
  });

  Promise.all([panel('projects', {}, drawProjects), panel('plans', {}, drawPlans)]).then(() => {
    if (projects.length === 0) {
      for (const name of ['trend', 'burn-up', 'failing', 'flaky']) show(name, note(text.noProjects));
      return;
    }
    // The project in the address, else the busiest one: the most runs in progress.
    const wanted = new URL(location.href).searchParams.get('project');
    const busiest = projects.reduce((best, project) => (project.stats.runsInProgress > best.stats.runsInProgress ? project : best));
    const chosen = projects.some((project) => project.code === wanted) ? wanted : busiest.code;
    projectChoice.replaceChildren(...projects.map((project) => option(project.code, project.name + ' (' + project.code + ')', project.code === chosen)));
    projectChoice.disabled = false;
    planChoice.disabled = false;
    projectChoice.addEventListener('change', reports);
    planChoice.addEventListener('change', burnUp);
    reports();
  });
  panel('live', {}, drawRuns);
})();`;
