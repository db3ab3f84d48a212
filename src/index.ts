export { createSandbox, DEFAULT_COUNT, DEFAULT_SEED } from './core/sandbox.js'
export type {
  Sandbox,
  SandboxOptions,
  SandboxState,
  PersistedState,
  World,
} from './core/sandbox.js'
export {
  defineScenario,
  BUILT_IN_SCENARIOS,
  SCENARIO_NAMES,
  OPERATIONS,
} from './core/scenarios/scenarios.js'
export type {
  Scenario,
  Latency,
  ForcedError,
  Operation,
} from './core/scenarios/scenarios.js'
export { SandboxError } from './core/common/errors.js'
export { StoreWriteError } from './core/data/store.js'
export type {
  StoreChange,
  StoreCreateChange,
  StoreReplaceChange,
} from './core/data/store.js'
export type { SandboxStore } from './core/world/sandbox-types.js'
export type { SandboxErrorCode } from './core/common/errors.js'
export { PET_STATUSES } from './core/common/schemas.js'
export type { Pet, NewPet, PetStatus, ApiError } from './core/common/schemas.js'
export type { Fixtures } from './core/data/fixtures.js'
export type { MovedPet } from './core/data/pet-data.js'
export type { Clock, ClockOptions, ClockState } from './core/data/clock.js'
export type { JournalEntry } from './core/coach/journal.js'
export { SESSION_FORMAT } from './core/coach/session-export.js'
export type { SessionExport } from './core/coach/session-export.js'
export type { Har, HarEntry, HarPair } from './core/coach/har.js'
export { API_ERROR_CODES, API_ERROR_STATUS } from './core/http/api-errors.js'
export type { ApiErrorCode } from './core/http/api-errors.js'
export { GET_PET_SUNSET } from './core/api/deprecation.js'
export { problems, assertWellBehaved } from './core/coach/report-card-check.js'
export { FINDING_CODES } from './core/coach/report-card.js'
export type { Report, Finding, FindingCode, Severity } from './core/coach/report-card.js'
