import { createHash, randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { AppError } from '../src/kernel/errors.ts';
import type { PublicRun } from '../src/share-links/share-links.schemas.ts';
import { readSharedRun } from '../src/share-links/share-links.service.ts';

/** The GET /share/runs/{token} page: the shared run as HTML, server-rendered, then kept current by its inline script. */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

/** Statuses in chart order, each with a fill of at least 3:1 contrast on white; the text always names the status too. */
const STATUSES = [
  { key: 'passed', label: 'Passed', fill: '#1a7f37' },
  { key: 'failed', label: 'Failed', fill: '#cf222e' },
  { key: 'blocked', label: 'Blocked', fill: '#9a6700' },
  { key: 'skipped', label: 'Skipped', fill: '#57606a' },
  { key: 'untested', label: 'Untested', fill: '#6e7781' },
] as const;

const CHART_WIDTH = 600;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#fff;margin:0 auto;max-width:60rem;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0}h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}dd{margin:0}
table{border-collapse:collapse;width:100%}caption{text-align:left;font-weight:600;padding:.5rem 0}
th,td{border-bottom:1px solid #d0d7de;padding:.4rem .5rem;text-align:left}th{background:#f6f8fa}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem}ul.legend svg{vertical-align:middle;margin-right:.3rem}
a:focus,[tabindex]:focus{outline:3px solid #0969da;outline-offset:2px}
.status-failed,.status-blocked{font-weight:600}`;

/** Keeps the page current: counts and chart from each progress event, the case table re-read at most every 2 s. */
const SCRIPT = `(() => {
  const root = document.querySelector('main');
  const token = root.dataset.token;
  const statuses = ${JSON.stringify(STATUSES.map((status) => status.key))};
  const width = ${CHART_WIDTH};
  const byId = (id) => document.getElementById(id);
  function showCounts(counts, passRate, state) {
    const total = statuses.reduce((sum, key) => sum + counts[key], 0);
    let x = 0;
    for (const key of statuses) {
      const w = total === 0 ? 0 : (counts[key] / total) * width;
      const bar = byId('bar-' + key);
      bar.setAttribute('x', String(x));
      bar.setAttribute('width', String(w));
      x += w;
      byId('count-' + key).textContent = String(counts[key]);
    }
    byId('pass-rate').textContent = passRate + '%';
    byId('state').textContent = state;
    byId('total').textContent = String(total);
  }
  let lastTableRead = 0;
  let tableTimer;
  async function readTable() {
    lastTableRead = Date.now();
    const response = await fetch('/api/v1/public/runs/' + encodeURIComponent(token));
    if (!response.ok) return;
    const run = await response.json();
    const rows = run.cases.map((each) => {
      const row = document.createElement('tr');
      const id = document.createElement('th');
      id.scope = 'row';
      id.textContent = each.displayId;
      const title = document.createElement('td');
      title.textContent = each.title;
      const status = document.createElement('td');
      status.textContent = each.status;
      status.className = 'status-' + each.status;
      const elapsed = document.createElement('td');
      elapsed.textContent = each.elapsedMs === null ? '' : (each.elapsedMs / 1000).toFixed(1) + ' s';
      row.append(id, title, status, elapsed);
      return row;
    });
    byId('cases').replaceChildren(...rows);
  }
  function scheduleTable() {
    if (tableTimer) return;
    tableTimer = setTimeout(() => { tableTimer = undefined; readTable().catch(() => {}); }, Math.max(0, lastTableRead + 2000 - Date.now()));
  }
  let first = true;
  const events = new EventSource('/api/v1/public/runs/' + encodeURIComponent(token) + '/events');
  events.addEventListener('progress', (event) => {
    const progress = JSON.parse(event.data);
    showCounts(progress.counts, progress.passRate, progress.state);
    if (first) first = false; else scheduleTable();
  });
  events.addEventListener('error', () => { if (events.readyState === EventSource.CLOSED) byId('live').textContent = 'Live updates stopped.'; });
})();`;

function chart(run: PublicRun): string {
  const total = STATUSES.reduce((sum, status) => sum + run.counts[status.key], 0);
  let x = 0;
  const bars = STATUSES.map((status) => {
    const width = total === 0 ? 0 : (run.counts[status.key] / total) * CHART_WIDTH;
    const bar = `<rect id="bar-${status.key}" x="${x}" y="0" width="${width}" height="32" fill="${status.fill}"><title>${status.label}</title></rect>`;
    x += width;
    return bar;
  }).join('');
  const legend = STATUSES.map(
    (status) =>
      `<li><svg width="14" height="14" aria-hidden="true" focusable="false"><rect width="14" height="14" fill="${status.fill}"/></svg>` +
      `${status.label}: <span id="count-${status.key}">${run.counts[status.key]}</span></li>`,
  ).join('');
  return (
    `<svg id="chart" role="img" aria-labelledby="chart-title" viewBox="0 0 ${CHART_WIDTH} 32" preserveAspectRatio="none" width="100%" height="32">` +
    `<title id="chart-title">Cases by status</title><rect x="0" y="0" width="${CHART_WIDTH}" height="32" fill="#eaeef2"/>${bars}</svg>` +
    `<ul class="legend" aria-live="polite" aria-atomic="true" id="counts">${legend}` +
    `<li>Total: <span id="total">${total}</span></li><li>Pass rate: <span id="pass-rate">${run.passRate}%</span></li></ul>`
  );
}

function caseRows(run: PublicRun): string {
  return run.cases
    .map(
      (each) =>
        `<tr><th scope="row">${escapeHtml(each.displayId)}</th><td>${escapeHtml(each.title)}</td>` +
        `<td class="status-${each.status}">${each.status}</td><td>${each.elapsedMs === null ? '' : `${(each.elapsedMs / 1000).toFixed(1)} s`}</td></tr>`,
    )
    .join('');
}

function htmlDocument(title: string, nonce: string | null, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
    `<style${nonce ? ` nonce="${nonce}"` : ''}>${STYLE}</style></head><body>${body}</body></html>`
  );
}

function runPage(run: PublicRun, token: string, nonce: string): string {
  const configurations = run.configurations.map((each) => `${escapeHtml(each.groupName)}: ${escapeHtml(each.valueName)}`).join(', ');
  const body =
    `<main data-token="${escapeHtml(token)}"><h1>${escapeHtml(run.name)}</h1>` +
    `<dl><dt>State</dt><dd id="state">${run.state}</dd>` +
    `<dt>Environment</dt><dd>${run.environmentName === null ? 'none' : escapeHtml(run.environmentName)}</dd>` +
    `<dt>Configurations</dt><dd>${configurations || 'none'}</dd></dl>` +
    `<h2>Progress</h2>${chart(run)}<p id="live" role="status"></p>` +
    `<h2>Cases</h2><div tabindex="0" role="region" aria-labelledby="cases-caption"><table><caption id="cases-caption">Cases of this run and their status</caption>` +
    `<thead><tr><th scope="col">ID</th><th scope="col">Title</th><th scope="col">Status</th><th scope="col">Elapsed</th></tr></thead>` +
    `<tbody id="cases">${caseRows(run)}</tbody></table></div></main><script nonce="${nonce}">${SCRIPT}</script>`;
  return htmlDocument(`${run.name} · shared test run`, nonce, body);
}

const NOT_FOUND_PAGE = htmlDocument(
  'Not found',
  null,
  '<main><h1>Not found</h1><p>This link does not lead to a shared test run.</p></main>',
);
/** The pages without a script (404, 429) allow their one style by its hash: the same bytes on every answer. */
const STATIC_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const csp = (nonce: string) =>
  `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; ` +
  "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PAGE_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };

function sendHtml(res: Response, status: number, html: string, headers: Record<string, string>): void {
  res
    .status(status)
    .set({ ...PAGE_HEADERS, ...headers })
    .type('html')
    .send(html);
}

/** GET /share/runs/{token}: every failure of the link is the same 404 page. */
export const sharePage: RequestHandler = async (req: Request, res) => {
  const token = req.params.token as string;
  let run: PublicRun;
  try {
    run = await readSharedRun(token, req.ip ?? req.socket.remoteAddress ?? 'unknown');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'too_many_requests') {
      const page = htmlDocument('Too many requests', null, '<main><h1>Too many requests</h1><p>Please try again in a minute.</p></main>');
      return sendHtml(res, 429, page, {
        'Content-Security-Policy': STATIC_CSP,
        'Retry-After': String(error.details?.retryAfterSeconds ?? 60),
      });
    }
    return sendHtml(res, 404, NOT_FOUND_PAGE, { 'Content-Security-Policy': STATIC_CSP });
  }
  const nonce = randomBytes(16).toString('base64');
  sendHtml(res, 200, runPage(run, token, nonce), { 'Content-Security-Policy': csp(nonce) });
};
