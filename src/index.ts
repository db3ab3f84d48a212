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
} from './core/scenarios.js'
export type { Scenario, Latency, ForcedError, Operation } from './core/scenarios.js'
export { SandboxError } from './core/errors.js'
export { StoreWriteError } from './core/store.js'
export type {
  SandboxStore,
  StoreChange,
  StoreCreateChange,
  StoreReplaceChange,
} from './core/store.js'
export type { SandboxErrorCode } from './core/errors.js'
export { PET_STATUSES } from './core/schemas.js'
export type { Pet, NewPet, PetStatus, ApiError } from './core/schemas.js'
export type { Fixtures } from './core/fixtures.js'
export type { MovedPet } from './core/pet-data.js'
export type { Clock, ClockOptions, ClockState } from './core/clock.js'
export type { JournalEntry } from './core/journal.js'
export { SESSION_FORMAT } from './core/session-export.js'
export type { SessionExport } from './core/session-export.js'
export type { Har, HarEntry, HarPair } from './core/har.js'
export { API_ERROR_CODES, API_ERROR_STATUS } from './core/api-errors.js'
export type { ApiErrorCode } from './core/api-errors.js'
export { GET_PET_SUNSET } from './core/deprecation.js'
export { problems, assertWellBehaved } from './core/report-card-check.js'
export { FINDING_CODES } from './core/report-card.js'
export type { Report, Finding, FindingCode, Severity } from './core/report-card.js'
