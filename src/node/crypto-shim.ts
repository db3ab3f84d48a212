import { webcrypto } from 'node:crypto'

// Injected into the CommonJS build (tsup.config.ts) in place of the global `crypto`:
// Jest 29's jsdom environment (jsdom 20) replaces it with one that has no randomUUID,
// which @msw/data calls for every record. Node's own is the same API.
export const crypto: Crypto =
  typeof globalThis.crypto?.randomUUID === 'function'
    ? globalThis.crypto
    : (webcrypto as unknown as Crypto)
