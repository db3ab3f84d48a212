/**
 * The inspector's styles, for its page and for the panel's shadow root alike. Colours
 * keep a contrast of at least 4.5:1 against their backgrounds (WCAG AA; the browser test
 * runs axe-core on the page).
 */
export const INSPECTOR_CSS = `
.psi { --ink: #111827; --muted: #4b5563; --line: #d1d5db; --paper: #ffffff; --soft: #f3f4f6;
  --accent: #0f5f59; --ok: #065f46; --ok-bg: #d1fae5; --warn: #7c2d12; --warn-bg: #ffedd5;
  --bad: #991b1b; --bad-bg: #fee2e2; --info: #1e3a8a; --info-bg: #dbeafe;
  color: var(--ink); background: var(--paper); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
.psi * { box-sizing: border-box; }
.psi code, .psi pre { font: 13px/1.4 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
.psi-title { margin: 0 0 .25rem; font-size: 1.5rem; }
h2.psi-title { font-size: 1.2rem; }
.psi-lead { margin: 0 0 1rem; color: var(--muted); }
.psi-controls { margin-bottom: .75rem; }
.psi-row { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: flex-end; }
.psi-row input, .psi-row select, .psi-row button { height: 2.25rem; }
.psi-notes { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; margin-top: .3rem; }
.psi-field { display: flex; flex-direction: column; gap: .2rem; }
.psi-field label { font-weight: 600; }
.psi-hint { color: var(--muted); font-size: 13px; }
.psi input, .psi select, .psi button { font: inherit; color: var(--ink); background: var(--paper);
  border: 1px solid #6b7280; border-radius: 6px; padding: .35rem .6rem; }
.psi input { min-width: 18rem; }
.psi button { cursor: pointer; background: var(--accent); color: #fff; border-color: var(--accent); }
.psi button:hover { background: #0b4a45; }
.psi-downloads { display: flex; gap: .5rem; margin-left: auto; }
.psi .psi-downloads button { background: var(--paper); color: var(--accent); }
.psi .psi-downloads button:hover { background: var(--soft); }
.psi :focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
.psi-status-line { margin: .25rem 0 .75rem; color: var(--ok); font-weight: 600; }
.psi-status-line.psi-failed { color: var(--bad); }
.psi-list { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
.psi-entry { border: 1px solid var(--line); border-radius: 8px; padding: .6rem .75rem; background: var(--paper); }
.psi-entry[hidden] { display: none; }
.psi-line { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.psi-badge { font-weight: 700; border-radius: 4px; padding: 0 .45rem; }
.psi-s2 { color: var(--ok); background: var(--ok-bg); }
.psi-s3 { color: var(--info); background: var(--info-bg); }
.psi-s4 { color: var(--warn); background: var(--warn-bg); }
.psi-s5 { color: var(--bad); background: var(--bad-bg); }
.psi-method { font-weight: 700; }
.psi-path { overflow-wrap: anywhere; }
.psi-code { color: var(--bad); }
.psi-flag { font-size: 13px; color: var(--warn); background: var(--warn-bg); border-radius: 4px; padding: 0 .4rem; }
.psi-line time { margin-left: auto; color: var(--muted); }
.psi-copy { padding: .1rem .5rem !important; font-size: 13px !important; }
.psi-meta { display: flex; flex-wrap: wrap; gap: .15rem 1.25rem; margin: .4rem 0 0; }
.psi-meta div { display: flex; gap: .35rem; }
.psi-meta dt { color: var(--muted); }
.psi-meta dd { margin: 0; }
.psi-error, .psi-warning { margin-top: .5rem; padding: .4rem .6rem; border-radius: 6px; }
.psi-error { background: var(--bad-bg); color: #7f1d1d; }
.psi-warning { background: var(--warn-bg); color: var(--warn); }
.psi-error p, .psi-warning p { margin: .15rem 0; }
.psi details { margin-top: .4rem; }
.psi summary { cursor: pointer; color: var(--accent); }
.psi pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: .5rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: .4rem 0; }
.psi-empty { color: var(--muted); }
.psi-views { display: grid; gap: 1rem; }
@media (min-width: 72rem) { .psi-views { grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); align-items: start; } }
.psi-report { border: 1px solid var(--line); border-radius: 8px; padding: .6rem .75rem; background: var(--soft); }
.psi-report-title { margin: 0 0 .25rem; font-size: 1.2rem; }
h3.psi-report-title { font-size: 1.05rem; }
.psi-report > .psi-hint { margin: 0 0 .5rem; }
.psi-report-summary { margin: 0 0 .5rem; font-weight: 600; }
.psi-report-summary.psi-failed { color: var(--bad); }
.psi-findings { list-style: none; margin: 0; padding: 0; display: grid; gap: .5rem; }
.psi-finding { border-left: 4px solid var(--info); background: var(--paper); border-radius: 6px; padding: .4rem .6rem; }
.psi-finding p { margin: .25rem 0; }
.psi-severity { font-weight: 700; border-radius: 4px; padding: 0 .45rem; color: var(--info); background: var(--info-bg); }
.psi-sev-error { border-left-color: var(--bad); }
.psi-sev-error .psi-severity { color: var(--bad); background: var(--bad-bg); }
.psi-sev-warning { border-left-color: var(--warn); }
.psi-sev-warning .psi-severity { color: var(--warn); background: var(--warn-bg); }
.psi-count { color: var(--muted); }
.psi-examples a { color: var(--accent); }
.psi-focused { outline: 2px solid var(--accent); outline-offset: 2px; }
`
