import { CONTROL_PATH } from '../core/control/control-call.js'
import { CONTROL_ROUTES } from '../core/control/routes.js'
import type { SandboxState } from '../core/sandbox.js'
import { BOLD, CYAN, DIM, YELLOW, type Paint } from './colors.js'
import type { LogFormat } from './flags.js'
import { thousands } from '../core/common/text.js'

/** What the banner says besides the sandbox's state. */
export interface BannerInfo {
  origin: string
  version: string
  /** How the data came to be: "50 pets from seed 42", "53 pets restored from ...". */
  data: string
  watching: string[]
  /** "2 from ./mocks/overrides.js": your own msw handlers, answered first. */
  handlers?: string
  openApi: boolean
  demo: boolean
  /** The API reference (`/docs/`) and the request inspector (`/inspector/`) were built. */
  docs?: boolean
  inspector?: boolean
  /** Who may reach the server: set when it is bound beyond loopback or has a token. */
  access?: BannerAccess
}

/** How the server is exposed and locked, for the banner. */
export interface BannerAccess {
  /** Bound to an address other machines can reach. */
  exposed: boolean
  /** Where it can be reached (for 0.0.0.0, every interface's address). */
  origins: string[]
  /** The token the control API requires; undefined when it requires none. */
  controlToken: string | undefined
}

/**
 * The start-up banner: the URL, the demo keys with their plans, the active scenario and
 * a curl command to paste. `quiet` gives one line; `json` one JSON object.
 */
export function formatBanner(
  state: SandboxState,
  info: BannerInfo,
  format: LogFormat,
  quiet: boolean,
  paint: Paint,
): string {
  const api = `${info.origin}/v1`
  const access = info.access
  const token = access?.controlToken
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`
  const warnings = [
    ...(access?.exposed
      ? [
          `Listening beyond loopback: anyone who reaches ${access.origins.join(', ')} can use the API${token === undefined ? '' : ' (the control API needs the token)'}.`,
        ]
      : []),
    ...(access?.exposed && token === undefined
      ? [
          '--control-token off: the control API (/__sandbox) is open to anyone on the network: they can reset, rewrite and read the sandbox.',
        ]
      : []),
  ]
  if (format === 'json') {
    return JSON.stringify({
      type: 'ready',
      version: info.version,
      url: api,
      origin: info.origin,
      scenario: state.scenario.name,
      seed: state.seed,
      pets: state.counts.pets,
      keys: state.keys,
      watching: info.watching,
      ...(access
        ? {
            exposed: access.exposed,
            origins: access.origins,
            ...(token === undefined ? {} : { controlToken: token }),
            warnings,
          }
        : {}),
    })
  }
  if (quiet)
    return [
      `petstore-sandbox listening on ${api} (scenario ${state.scenario.name})`,
      ...(token === undefined ? [] : [`control token: ${token}`]),
      ...warnings.map((line) => `⚠ ${line}`),
    ].join('\n')
  const key = state.keys.find((entry) => !entry.expired)?.key ?? 'sandbox-free-key'
  const width = Math.max(...state.keys.map((entry) => entry.key.length)) + 2
  const planWidth = Math.max(...state.keys.map((entry) => entry.plan.length)) + 2
  const label = (text: string) => paint(DIM, text.padEnd(10))
  const lines = [
    '',
    `  ${paint(BOLD, 'petstore-sandbox')} ${info.version} · the Pet Adoption Service v1 API, mocked`,
    '',
    `  ${label('API')}${paint(CYAN, api)}`,
    ...(access?.exposed
      ? [
          `  ${label('Network')}${access.origins.map((origin) => `${origin}/v1`).join(' · ')}`,
        ]
      : []),
    `  ${label('Overview')}${[`${info.origin}/${query}`, info.openApi ? 'OpenAPI /openapi.json and /__sandbox/openapi.json' : '', info.demo ? 'demo /demo/' : ''].filter(Boolean).join(' · ')}`,
    ...(info.docs
      ? [
          `  ${label('Docs')}${info.origin}/docs/${query} ${paint(DIM, '(API reference, try it)')}`,
        ]
      : []),
    ...(info.inspector
      ? [
          `  ${label('Inspector')}${info.origin}/inspector/${query} ${paint(DIM, '(live request journal, errors explained)')}`,
        ]
      : []),
    `  ${label('Scenario')}${paint(BOLD, state.scenario.name)}: ${state.scenario.description}`,
    `  ${label('Data')}${info.data}`,
    ...(info.handlers ? [`  ${label('Handlers')}${info.handlers}, answered first`] : []),
    ...(info.watching.length > 0
      ? [`  ${label('Watching')}${info.watching.join(', ')}`]
      : []),
    '',
    `  Demo keys ${paint(DIM, '(Authorization: Bearer <key>)')}`,
    ...state.keys.map(
      (entry) =>
        `    ${entry.key.padEnd(width)}${entry.plan.padEnd(planWidth)}${
          entry.expired
            ? 'always 401 expired_api_key'
            : `${thousands(entry.perMinute)}/min, ${thousands(entry.perDay)}/day`
        }${entry.scenario ? `, scenario ${entry.scenario}` : ''}`,
    ),
    `  ${paint(DIM, 'Sessions: add .<id> to a key (sandbox-free-key.alice) or send X-Sandbox-Session: <id>')}`,
    '',
    '  Try it',
    `    curl -H 'Authorization: Bearer ${key}' '${api}/pets?limit=3'`,
    '',
    `  ${label('Control')}${CONTROL_ROUTES.filter(
      (route) =>
        route.method !== 'GET' ||
        route.path === '' ||
        route.path === '/requests' ||
        route.path === '/report',
    )
      .map((route) => `${route.method} ${CONTROL_PATH}${route.path}`)
      .join(' · ')}`,
    ...(token === undefined
      ? []
      : [
          `  ${label('Token')}${paint(BOLD, token)} ${paint(DIM, '(X-Sandbox-Control-Token: <token> on every /__sandbox request)')}`,
        ]),
    ...warnings.map((line) => `  ${paint(YELLOW, `⚠ ${line}`)}`),
    `  ${paint(DIM, 'One line per request below. Ctrl+C to stop.')}`,
    '',
  ]
  return lines.join('\n')
}
