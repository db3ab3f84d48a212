/**
 * One line per operation of the route tables (api/routes.ts, control/routes.ts), by
 * operationId: what the landing page and the OpenAPI `summary` say of it. A table of its own, which routing never reads, so the browser entry does
 * not carry the words (docs/performance.md, "The browser entry's weight").
 */
const ROUTE_SUMMARIES: Readonly<Record<string, string>> = {
  listPets: 'List animals: ?limit=1..100 (default 20), ?status=available|pending|sold.',
  createPet:
    'Add an animal: {"name":"Rex","categoryId":1,"status":"available"} → 201 Pet.',
  getPet:
    'Get an animal. Deprecated: Deprecation, Sunset (5 December 2030) and Link headers; 410 after the sunset.',
  listOrders: 'Mentioned by the API, shape not published: 501 not_implemented.',
  getSandboxState: 'State: scenario, seed, counts, keys, clock.',
  resetSandbox:
    'Back to the start: seeded data, fresh rate-limit windows, clock, startup scenario.',
  getScenario: 'The active scenario.',
  useScenario: 'Switch scenario: {"name":"rate-limited"}.',
  defineScenario:
    'Define a scenario for this session: {"description":"...","errors":{...}} (a scenario file without keys) → 201, or 200 when replaced.',
  deleteScenario:
    'Remove a scenario the session defined; if active, back to the startup one.',
  getClock: 'The sandbox clock.',
  setClock: 'Move time: {"advanceSeconds":60} or {"now":"2031-01-01T00:00:00Z"}.',
  listRequests: 'The most recent /v1 requests with their status, code, key and scenario.',
  getRequest:
    'One journal entry by its request id (the X-Sandbox-Request-Id of its answer), from any session.',
  exportHar: "The session's journal as HAR 1.2, for browser dev tools.",
  exportSession:
    'The session as a petstore-sandbox/session@1 export: pets, scenario, clock, journal.',
  getReport:
    'The report card of the session: what its client does wrong, how often, how to fix it, with example request ids.',
  listSessions: 'The live sessions: id, created, last used, pets.',
  createSession:
    'Start a session (or get the existing one): {"id":"worker-1"} → its keys, e.g. sandbox-free-key.worker-1; {"id","from":<export>} imports one.',
  deleteSession: 'End a session; its next request starts afresh.',
}

/** The summary of the route with this operationId. */
export function summaryOf(operationId: string): string {
  const summary = ROUTE_SUMMARIES[operationId]
  if (summary === undefined)
    throw new Error(
      `No summary for the route ${operationId}: add one to ROUTE_SUMMARIES (src/core/http/route-summaries.ts).`,
    )
  return summary
}
