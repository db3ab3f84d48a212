import { summaryOf } from '../../core/http/route-summaries.js'
import type { RouteBase } from '../../core/http/router.js'
import { API_ROUTES } from '../../core/api/routes.js'
import { CONTROL_PATH } from '../../core/control/control-call.js'
import { CONTROL_ROUTES } from '../../core/control/routes.js'
import type { SandboxState } from '../../core/sandbox.js'
import { thousands } from '../../core/common/text.js'

/** What the landing page shows besides the sandbox's state. */
export interface LandingPageInfo {
  /** `http://127.0.0.1:4010`, as the browser reached the server. */
  origin: string
  version: string
  openApi: boolean
  demo: boolean
  /** The API reference (`/docs/`) and the request inspector (`/inspector/`) were built. */
  docs?: boolean
  inspector?: boolean
  /** The control token the page was opened with (the banner's link): its links carry it. */
  controlToken?: string
}

/**
 * The page at `/`: what this is and how to call it, from the running sandbox's own
 * state, so keys and scenarios loaded from files show up too. Self-contained (no CDN).
 */
export function renderLandingPage(state: SandboxState, info: LandingPageInfo): string {
  const key = state.keys.find((entry) => !entry.expired)?.key ?? 'sandbox-free-key'
  const token =
    info.controlToken === undefined
      ? ''
      : `?token=${escapeHtml(encodeURIComponent(info.controlToken))}`
  const curl = `curl -H 'Authorization: Bearer ${key}' '${info.origin}/v1/pets?limit=3'`
  const rows = (cells: string[][]) =>
    cells
      .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
      .join('\n')
  const endpoint = (base: string) => (route: RouteBase) => [
    `<code>${route.method}</code>`,
    `<code>${escapeHtml(base + route.path)}</code>`,
    escapeHtml(summaryOf(route.operationId)),
  ]
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>petstore-sandbox</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
:root { color-scheme: light dark; --muted: #6b7280; --line: #d1d5db; --accent: #0f766e; }
body { font: 16px/1.5 system-ui, sans-serif; max-width: 58rem; margin: 2rem auto; padding: 0 1rem; }
h1 { margin-bottom: 0; } .lead { color: var(--muted); margin-top: .25rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1.5rem; }
td, th { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
code, pre { font: 14px/1.4 ui-monospace, monospace; }
pre { padding: .75rem; border: 1px solid var(--line); border-radius: 6px; overflow-x: auto; }
a { color: var(--accent); } .active { font-weight: 600; }
nav a { margin-right: 1rem; }
</style>
</head>
<body>
<h1>petstore-sandbox</h1>
<p class="lead">A stateful sandbox of the Pet Adoption Service v1 API (version ${escapeHtml(info.version)}): realistic, deterministic data (seed ${state.seed}, ${thousands(state.counts.pets)} pets), demo keys, rate limits, scenarios and a controllable clock.</p>
<nav>
${info.docs ? `<a href="/docs/${token}">API reference (try it)</a>` : ''}
${info.inspector ? `<a href="/inspector/${token}">Request inspector (live)</a>` : ''}
${info.openApi ? '<a href="/openapi.json">OpenAPI document</a>\n<a href="/__sandbox/openapi.json">Control API\'s OpenAPI document</a>' : ''}
${info.demo ? '<a href="/demo/">Browser demo</a>' : ''}
<a href="/__sandbox${token}">State (JSON)</a>
<a href="/__sandbox/requests${token}">Recent requests</a>
<a href="/__sandbox/report${token}">Report card</a>
</nav>
<h2>Try it</h2>
<pre>${escapeHtml(curl)}</pre>
<p>Base address: <code>${escapeHtml(info.origin)}/v1</code>. Every operation needs <code>Authorization: Bearer &lt;key&gt;</code>; every <code>/v1</code> response carries <code>X-RateLimit-Limit</code>, <code>X-RateLimit-Remaining</code> and <code>X-RateLimit-Reset</code>, and every error is JSON <code>{"code","message","status"}</code>.</p>
<h2>Endpoints</h2>
<table>
<thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead>
<tbody>
${rows(API_ROUTES.map(endpoint('/v1')))}
</tbody>
</table>
<h2>Demo keys</h2>
<table>
<thead><tr><th>Key</th><th>Plan</th><th>Limits</th></tr></thead>
<tbody>
${rows(
  state.keys.map((entry) => [
    `<code>${escapeHtml(entry.key)}</code>`,
    escapeHtml(entry.plan),
    entry.expired
      ? 'always 401 <code>expired_api_key</code>'
      : `${thousands(entry.perMinute)}/min, ${thousands(entry.perDay)}/day${entry.scenario ? `; selects the scenario <code>${escapeHtml(entry.scenario)}</code>` : ''}`,
  ]),
)}
</tbody>
</table>
<p>Sessions: each session is its own world (pets, limits, clock, scenario, journal). Name one with the header <code>X-Sandbox-Session: &lt;id&gt;</code>, or add <code>.&lt;id&gt;</code> to a key (<code>sandbox-free-key.alice</code>); <code>POST /__sandbox/sessions</code> gives a session its keys.</p>
<h2>Scenarios</h2>
<p>Active: <code>${escapeHtml(state.scenario.name)}</code>. Select one for a request with the header <code>X-Sandbox-Scenario: &lt;name&gt;</code>, for every request with <code>PUT /__sandbox/scenario</code>, or at start with <code>npx petstore-sandbox --scenario &lt;name&gt;</code>.</p>
<table>
<thead><tr><th>Name</th><th>What the client sees</th></tr></thead>
<tbody>
${rows(
  state.scenarios.map((scenario) => [
    `<code${scenario.name === state.scenario.name ? ' class="active"' : ''}>${escapeHtml(scenario.name)}</code>`,
    escapeHtml(scenario.description),
  ]),
)}
</tbody>
</table>
<h2>Control endpoints</h2>
<table>
<thead><tr><th>Method</th><th>Path</th><th>What it does</th></tr></thead>
<tbody>
${rows(CONTROL_ROUTES.map(endpoint(CONTROL_PATH)))}
</tbody>
</table>
<p>Sandbox clock: <code>${escapeHtml(state.clock.now)}</code>${state.clock.frozen ? ' (frozen)' : ''}.</p>
</body>
</html>
`
}

export function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}
