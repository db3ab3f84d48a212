// The page at /docs/ of the standalone server: Swagger UI (swagger-ui-dist, copied into
// the package at build time, so nothing comes from a CDN) over one of the server's two
// OpenAPI documents, picked on the page: the API's (/openapi.json) or the control API's
// (/__sandbox/openapi.json). Each names this server, so "Try it out" calls the sandbox.

interface SwaggerUi {
  preauthorizeApiKey(name: string, value: string): void
  specActions: { updateUrl(url: string): void; download(url?: string): unknown }
}

/** The documents the picker offers, by the value of its options (and of ?document=). */
const DOCUMENTS = { api: '/openapi.json', control: '/__sandbox/openapi.json' } as const
type DocumentName = keyof typeof DOCUMENTS

interface SwaggerRequest {
  url: string
  headers: Record<string, string>
}

declare const SwaggerUIBundle: (config: Record<string, unknown>) => SwaggerUi

/** The built-in demo keys, when the control API cannot be asked (no token). */
const FALLBACK_KEYS = [
  { key: 'sandbox-free-key', plan: 'free' },
  { key: 'sandbox-pro-key', plan: 'pro' },
  { key: 'sandbox-business-key', plan: 'business' },
  { key: 'sandbox-enterprise-key', plan: 'enterprise' },
  { key: 'sandbox-expired-key', plan: 'free', expired: true },
]

type DemoKey = { key: string; plan: string; expired?: boolean; scenario?: string }

const query = new URLSearchParams(location.search)
const token = query.get('token') ?? undefined
// Only one of the two names: the page never loads a document a link names (?url=).
let shown: DocumentName = query.get('document') === 'control' ? 'control' : 'api'
const tokenQuery = token === undefined ? '' : `?token=${encodeURIComponent(token)}`
for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-token]')) {
  link.href += tokenQuery
}

async function demoKeys(): Promise<DemoKey[]> {
  try {
    const response = await fetch('/__sandbox', {
      headers: token === undefined ? {} : { 'x-sandbox-control-token': token },
    })
    if (!response.ok) return FALLBACK_KEYS
    const state = (await response.json()) as { keys?: DemoKey[] }
    return state.keys?.length ? state.keys : FALLBACK_KEYS
  } catch {
    return FALLBACK_KEYS
  }
}

const select = document.getElementById('demo-key') as HTMLSelectElement
let chosen = 'sandbox-free-key'

void demoKeys().then((keys) => {
  select.replaceChildren(
    ...keys.map(({ key, plan, expired, scenario }) => {
      const label = `${key} (${plan}${expired ? ', expired: 401' : ''}${scenario ? `, scenario ${scenario}` : ''})`
      const option = new Option(label, key, key === chosen, key === chosen)
      return option
    }),
  )
})

/**
 * Names the form controls Swagger UI renders without a label (the server list, a
 * parameter's enum list), so screen readers can say what each one is for.
 */
function labelControls(root: ParentNode) {
  for (const control of root.querySelectorAll<HTMLElement>(
    'select:not([aria-label]), input:not([aria-label]):not([type="hidden"]), textarea:not([aria-label])',
  )) {
    // Swagger UI wraps some in a <label> with no text of its own: that names nothing.
    if (control.id === 'demo-key') continue
    const row = control.closest<HTMLElement>('tr[data-param-name]')
    const name =
      control.id === 'servers'
        ? 'Server'
        : row
          ? `${row.dataset.paramName} (${row.dataset.paramIn})`
          : control.closest('.body-param')
            ? 'Request body'
            : control.getAttribute('placeholder')
    if (name) control.setAttribute('aria-label', name)
  }
}

const swaggerRoot = document.getElementById('swagger-ui') as HTMLElement
const preview = document.getElementById('docs-preview')

/**
 * Swagger UI renders hidden, behind the build-time list of operations (docs-preview.js),
 * and takes its place in one step once its operations are there: one change of layout
 * instead of a page that fills in piece by piece.
 */
function showSwaggerUi() {
  // Its operations, or its own account of a document it could not load or read.
  if (!swaggerRoot.hidden || !swaggerRoot.querySelector('.opblock, .errors-wrapper'))
    return
  preview?.remove()
  swaggerRoot.hidden = false
  // Read by the bench (bench/docs-render.js): when "Try it out" became usable.
  performance.mark('swagger-ui-rendered')
}

new MutationObserver(() => {
  labelControls(swaggerRoot)
  showSwaggerUi()
}).observe(swaggerRoot, { childList: true, subtree: true })

/** Hands Swagger UI the demo key and, on a locked server, the control token. */
function authorize(started: SwaggerUi) {
  // A document without the scheme (the control API has no bearerAuth) ignores it.
  started.preauthorizeApiKey('bearerAuth', chosen)
  if (token !== undefined) started.preauthorizeApiKey('controlToken', token)
}

/** Swagger UI over the shown document; undefined, and the page says why, when its script did not load. */
function startSwaggerUi(): SwaggerUi | undefined {
  if (typeof SwaggerUIBundle !== 'function') {
    const status = preview?.querySelector('.docs-preview-status')
    if (status) {
      status.textContent =
        "Try it out is not available: Swagger UI (./swagger-ui-bundle.js) did not load. The operations below are still this server's OpenAPI document (/openapi.json); reload the page to try again."
    }
    return undefined
  }
  const started: SwaggerUi = SwaggerUIBundle({
    url: DOCUMENTS[shown],
    dom_id: '#swagger-ui',
    // Never a document or a config named by the page's query (?url=, ?configUrl=): a
    // link could point "Try it out" elsewhere. Swagger UI's default, kept on purpose.
    queryConfigEnabled: false,
    // With deep links, each operation's summary button holds a link: nested controls,
    // which screen readers and keyboards handle badly (axe's nested-interactive).
    deepLinking: false,
    // Off, as in every Swagger UI: an operation opens read-only and its "Try it out"
    // button starts the form. Switched on, the button reads "Cancel", so the click a
    // Swagger UI user makes out of habit switched the form off.
    tryItOutEnabled: false,
    displayRequestDuration: true,
    showExtensions: true,
    showCommonExtensions: true,
    filter: true,
    // Swagger's online validator would be a request to another host.
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
    requestInterceptor(request: SwaggerRequest) {
      // The control API needs the token beyond loopback; /v1 never gets it.
      if (
        token !== undefined &&
        new URL(request.url, location.href).pathname.startsWith('/__sandbox')
      ) {
        request.headers['X-Sandbox-Control-Token'] = token
      }
      return request
    },
    onComplete() {
      authorize(started)
      showSwaggerUi()
      document.body.dataset.document = shown
      document.body.dataset.ready = 'true'
    },
  })
  return started
}

/**
 * Shows the parts of the key bar that fit the shown document: the demo-key picker and its
 * note for the API, a note that no key is needed for the control API, which takes none.
 */
function showKeyBar() {
  for (const part of document.querySelectorAll<HTMLElement>('[data-for-document]')) {
    part.hidden = part.dataset.forDocument !== shown
  }
}

showKeyBar()
const ui = startSwaggerUi()

const picker = document.getElementById('openapi-document') as HTMLSelectElement
picker.value = shown
picker.addEventListener('change', () => {
  shown = picker.value === 'control' ? 'control' : 'api'
  // The choice is in the address, so a reload or a shared link shows the same document.
  const next = new URLSearchParams(location.search)
  if (shown === 'api') next.delete('document')
  else next.set('document', shown)
  const search = next.toString()
  history.replaceState(null, '', `${location.pathname}${search ? `?${search}` : ''}`)
  showKeyBar()
  if (!ui) return
  ui.specActions.updateUrl(DOCUMENTS[shown])
  void Promise.resolve(ui.specActions.download(DOCUMENTS[shown])).then(() => {
    authorize(ui)
    document.body.dataset.document = shown
  })
})

select.addEventListener('change', () => {
  chosen = select.value
  ui?.preauthorizeApiKey('bearerAuth', chosen)
})
