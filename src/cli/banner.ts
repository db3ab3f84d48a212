import { CONTROL_PATH, CONTROL_ROUTES } from '../core/routes.js'
import type { SandboxState } from '../core/sandbox.js'
import { BOLD, CYAN, DIM, type Paint } from './colors.js'
import type { LogFormat } from './flags.js'

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
    })
  }
  if (quiet)
    return `petstore-sandbox listening on ${api} (scenario ${state.scenario.name})`
  const number = (value: number) => value.toLocaleString('en-US')
  const key = state.keys.find((entry) => !entry.expired)?.key ?? 'sandbox-free-key'
  const width = Math.max(...state.keys.map((entry) => entry.key.length)) + 2
  const planWidth = Math.max(...state.keys.map((entry) => entry.plan.length)) + 2
  const label = (text: string) => paint(DIM, text.padEnd(10))
  const lines = [
    '',
    `  ${paint(BOLD, 'petstore-sandbox')} ${info.version} · the Pet Adoption Service v1 API, mocked`,
    '',
    `  ${label('API')}${paint(CYAN, api)}`,
    `  ${label('Overview')}${[`${info.origin}/`, info.openApi ? 'OpenAPI /openapi.json' : '', info.demo ? 'demo /demo/' : ''].filter(Boolean).join(' · ')}`,
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
            : `${number(entry.perMinute)}/min, ${number(entry.perDay)}/day`
        }`,
    ),
    '',
    '  Try it',
    `    curl -H 'Authorization: Bearer ${key}' '${api}/pets?limit=3'`,
    '',
    `  ${label('Control')}${CONTROL_ROUTES.filter(
      (route) =>
        route.method !== 'GET' || route.path === '' || route.path === '/requests',
    )
      .map((route) => `${route.method} ${CONTROL_PATH}${route.path}`)
      .join(' · ')}`,
    `  ${paint(DIM, 'One line per request below. Ctrl+C to stop.')}`,
    '',
  ]
  return lines.join('\n')
}
