import type { ApiError, Pet, PetStatus, SandboxState } from 'petstore-sandbox/browser'
import { createApiClient, SHOWN_HEADERS, type ApiResult } from './api-client.js'

const FALLBACK_KEYS = [
  'sandbox-free-key',
  'sandbox-pro-key',
  'sandbox-business-key',
  'sandbox-enterprise-key',
  'sandbox-expired-key',
]

const STATUS_TEXT: Record<number, string> = {
  0: 'Network error',
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  410: 'Gone',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
}

/** Where the API is and what runs it, as main.ts found out. */
export interface AppOptions {
  /** Origin of the API, '' for this page's origin. */
  origin: string
  /** Shown in the header: which runtime answers. */
  runtime: string
}

/** Wires the page in index.html to the API; the same code for the worker and the server. */
export async function startApp({ origin, runtime }: AppOptions): Promise<void> {
  const el = {
    runtime: byId('runtime'),
    apiKey: byId<HTMLSelectElement>('api-key'),
    scenario: byId<HTMLSelectElement>('scenario'),
    scenarioDescription: byId('scenario-description'),
    reset: byId<HTMLButtonElement>('reset'),
    banner: byId('rate-limit-banner'),
    bannerTitle: byId('rate-limit-title'),
    bannerMessage: byId('rate-limit-message'),
    countdown: byId('countdown'),
    countdownBar: byId('countdown-bar'),
    retry: byId<HTMLButtonElement>('retry'),
    filters: byId<HTMLFormElement>('filters'),
    statusFilter: byId<HTMLSelectElement>('status-filter'),
    limit: byId<HTMLInputElement>('limit'),
    listError: byId('list-error'),
    listMeta: byId('list-meta'),
    pets: byId('pets'),
    addPet: byId<HTMLFormElement>('add-pet'),
    petName: byId<HTMLInputElement>('pet-name'),
    petCategory: byId<HTMLInputElement>('pet-category'),
    petStatus: byId<HTMLSelectElement>('pet-status'),
    formResult: byId('form-result'),
    lastRequest: byId('last-request'),
    headers: byId('headers'),
    details: byId('pet-details'),
    detailsBody: byId('details-body'),
  }

  const client = createApiClient({
    origin,
    apiKey: () => el.apiKey.value || 'sandbox-free-key',
    onApiResponse: renderLastResponse,
  })

  // --- rate limiting: honour Retry-After instead of retrying, so the key is never banned
  let cooldownTimer: ReturnType<typeof setInterval> | undefined

  function setApiActionsEnabled(enabled: boolean) {
    for (const button of document.querySelectorAll<HTMLButtonElement>('.api-action')) {
      button.disabled = !enabled
    }
  }

  function startCooldown(result: Extract<ApiResult<unknown>, { ok: false }>) {
    stopCooldown()
    const header = Number(result.headers.get('retry-after'))
    const seconds = Number.isFinite(header) && header > 0 ? Math.ceil(header) : 1
    const until = Date.now() + seconds * 1000
    const banned = result.error.code === 'api_key_temporarily_banned'
    el.banner.classList.remove('hidden', 'done')
    el.banner.dataset.retryAfter = String(seconds)
    el.banner.dataset.code = result.error.code
    el.bannerTitle.textContent = banned
      ? 'API key temporarily banned'
      : 'Too many requests'
    el.bannerMessage.replaceChildren(
      h('span', { class: 'code' }, `${result.status} ${result.error.code}`),
      banned
        ? ` The key ${el.apiKey.value || 'sandbox-free-key'} is banned until about ${utcTime(until)} (${seconds} s, Retry-After): requests were sent with it while a 429 asked them to wait. Requests are paused until then; after it, wait the Retry-After of every 429 before retrying. In the sandbox, Reset lifts the ban at once.`
        : ` Requests are paused for the ${seconds} s the API asked for (Retry-After): retrying sooner counts towards a temporary ban of the key.`,
    )
    el.retry.classList.add('hidden')
    setApiActionsEnabled(false)
    const tick = () => {
      const left = Math.max(0, Math.ceil((until - Date.now()) / 1000))
      el.countdown.textContent = String(left)
      el.countdownBar.style.width = `${(left / seconds) * 100}%`
      if (left > 0) return
      clearInterval(cooldownTimer)
      cooldownTimer = undefined
      el.banner.classList.add('done')
      el.bannerTitle.textContent = 'You can retry now'
      el.retry.classList.remove('hidden')
      setApiActionsEnabled(true)
    }
    tick()
    cooldownTimer = setInterval(tick, 250)
  }

  function stopCooldown() {
    if (cooldownTimer !== undefined) clearInterval(cooldownTimer)
    cooldownTimer = undefined
    el.banner.classList.add('hidden')
    delete el.banner.dataset.retryAfter
    setApiActionsEnabled(true)
  }

  // --- the last response panel
  function renderLastResponse(result: ApiResult<unknown>) {
    el.lastRequest.replaceChildren(
      h('code', {}, result.label),
      ' → ',
      h(
        'span',
        {
          class: `status status-${Math.floor(result.status / 100)}xx`,
          id: 'last-status',
        },
        `${result.status} ${STATUS_TEXT[result.status] ?? ''}`.trim(),
      ),
    )
    el.headers.replaceChildren(
      ...SHOWN_HEADERS.flatMap((name) => {
        const value = result.headers.get(name)
        const shown = value === null ? '—' : describeHeader(name, value)
        return [
          h('dt', {}, name),
          h(
            'dd',
            { 'data-header': name.toLowerCase(), class: value === null ? 'absent' : '' },
            shown,
          ),
        ]
      }),
    )
  }

  // --- pets
  function showError(target: HTMLElement, error: ApiError) {
    target.replaceChildren(h('span', { class: 'code' }, error.code), ' ', error.message)
    target.classList.remove('hidden')
  }

  async function loadPets() {
    el.listMeta.textContent = 'Loading…'
    el.pets.setAttribute('aria-busy', 'true')
    const status = el.statusFilter.value as PetStatus | ''
    const limit = el.limit.value.trim()
    const result = await client.listPets({ status, limit })
    el.pets.removeAttribute('aria-busy')
    if (!result.ok) {
      // The last good list stays on screen: an error is news, not a reason to blank the page.
      showError(el.listError, result.error)
      el.listMeta.textContent = `Could not load pets (${result.status}).`
      if (result.status === 429) startCooldown(result)
      return
    }
    el.listError.classList.add('hidden')
    el.listMeta.textContent = `${result.data.length} pets · status ${status || 'any'} · limit ${limit || '20 (default)'} · ordered by id`
    el.listMeta.dataset.status = status
    el.listMeta.dataset.count = String(result.data.length)
    el.pets.replaceChildren(
      ...(result.data.length === 0
        ? [h('tr', {}, h('td', { colspan: '5', class: 'empty' }, 'No pets match.'))]
        : result.data.map(renderPet)),
    )
  }

  function renderPet(pet: Pet) {
    const details = h('button', { type: 'button', class: 'api-action link' }, 'Details')
    details.disabled = cooldownTimer !== undefined
    details.addEventListener('click', () => void showDetails(pet.id))
    return h(
      'tr',
      { 'data-pet-id': String(pet.id), 'data-pet': JSON.stringify(pet) },
      h('td', { class: 'id' }, String(pet.id)),
      h('td', { class: 'name' }, pet.name),
      h('td', {}, `#${pet.categoryId}`),
      h(
        'td',
        {},
        pet.status === undefined
          ? h('span', { class: 'chip none' }, 'not set')
          : h('span', { class: `chip ${pet.status}` }, pet.status),
      ),
      h('td', { class: 'actions' }, details),
    )
  }

  async function showDetails(id: number) {
    const result = await client.getPet(id)
    el.details.classList.remove('hidden')
    el.detailsBody.textContent = JSON.stringify(
      result.ok ? result.data : result.error,
      null,
      2,
    )
    if (!result.ok && result.status === 429) startCooldown(result)
  }

  async function createPet() {
    const body: Record<string, unknown> = {}
    const name = el.petName.value
    const category = el.petCategory.value.trim()
    // Fields left empty are left out, so the API says what is missing; the rest go as typed.
    if (name !== '') body.name = name
    if (category !== '')
      body.categoryId = /^-?\d+$/.test(category) ? Number(category) : category
    if (el.petStatus.value !== '') body.status = el.petStatus.value
    for (const input of [el.petName, el.petCategory, el.petStatus])
      input.removeAttribute('aria-invalid')
    const result = await client.createPet(body)
    el.formResult.classList.remove('hidden', 'success', 'error')
    if (result.ok) {
      const pet = result.data
      el.formResult.classList.add('success')
      el.formResult.dataset.petId = String(pet.id)
      el.formResult.replaceChildren(
        h('strong', {}, `Added pet #${pet.id} “${pet.name}”`),
        ` in category #${pet.categoryId}, status ${pet.status ?? 'not set'}.`,
      )
      el.addPet.reset()
      return
    }
    el.formResult.classList.add('error')
    delete el.formResult.dataset.petId
    showError(el.formResult, result.error)
    if (result.status === 429) startCooldown(result)
    // The Error message names the field and the rule; point at the fields it names.
    const named = { name: el.petName, categoryId: el.petCategory, status: el.petStatus }
    for (const [field, input] of Object.entries(named)) {
      if (new RegExp(`\\b${field}\\b`).test(result.error.message))
        input.setAttribute('aria-invalid', 'true')
    }
  }

  // --- scenarios and keys from the control API
  function renderState(state: SandboxState) {
    const selectedKey = el.apiKey.value || 'sandbox-free-key'
    el.apiKey.replaceChildren(
      ...state.keys.map((key) =>
        h(
          'option',
          { value: key.key },
          `${key.key} (${key.plan}${key.expired ? ', expired' : ''})`,
        ),
      ),
    )
    el.apiKey.value = selectedKey
    el.scenario.replaceChildren(
      ...state.scenarios.map((scenario) =>
        h('option', { value: scenario.name, title: scenario.description }, scenario.name),
      ),
    )
    el.scenario.value = state.scenario.name
    el.scenarioDescription.textContent = state.scenario.description
    el.runtime.replaceChildren(
      h('span', { class: 'badge' }, runtime),
      ` seed ${state.seed} · ${state.counts.pets} pets`,
    )
  }

  async function refreshState() {
    const result = await client.state()
    if (result.ok) {
      renderState(result.data)
      return
    }
    // Without the control API (a plain proxy in front of the API, say) the demo still lists.
    el.apiKey.replaceChildren(
      ...FALLBACK_KEYS.map((key) => h('option', { value: key }, key)),
    )
    el.scenario.disabled = true
    el.reset.disabled = true
    el.runtime.replaceChildren(
      h('span', { class: 'badge' }, runtime),
      ' control API unavailable',
    )
  }

  el.filters.addEventListener('submit', (event) => {
    event.preventDefault()
    void loadPets()
  })
  el.statusFilter.addEventListener('change', () => {
    if (cooldownTimer === undefined) void loadPets()
  })
  el.addPet.addEventListener('submit', (event) => {
    event.preventDefault()
    void createPet()
  })
  el.retry.addEventListener('click', () => {
    stopCooldown()
    void loadPets()
  })
  el.scenario.addEventListener('change', async () => {
    const result = await client.useScenario(el.scenario.value)
    if (!result.ok) return showError(el.listError, result.error)
    el.scenarioDescription.textContent = result.data.description
    document.body.dataset.scenario = result.data.name
    // A new scenario is a new situation: the old Retry-After no longer applies.
    stopCooldown()
    await loadPets()
  })
  el.reset.addEventListener('click', async () => {
    const result = await client.reset()
    if (!result.ok) return showError(el.listError, result.error)
    stopCooldown()
    el.details.classList.add('hidden')
    el.formResult.classList.add('hidden')
    renderState(result.data)
    document.body.dataset.scenario = result.data.scenario.name
    await loadPets()
  })

  await refreshState()
  document.body.dataset.scenario = el.scenario.value
  await loadPets()
}

/** `14:30:00 UTC`: a time as the page shows every time. */
function utcTime(milliseconds: number) {
  return `${new Date(milliseconds).toISOString().slice(11, 19)} UTC`
}

function describeHeader(name: string, value: string) {
  if (name === 'X-RateLimit-Reset' && /^\d+$/.test(value)) {
    return `${value} (${utcTime(Number(value) * 1000)})`
  }
  if (name === 'Retry-After' && /^\d+$/.test(value)) return `${value} s`
  return value
}

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found)
    throw new Error(`The demo page has no #${id}; index.html and app.ts disagree.`)
  return found as T
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string>,
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== '') element.setAttribute(name, value)
  }
  element.append(...children)
  return element
}
