import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url))

export default defineConfig({
  resolve: {
    // Tests import the package by its public names, as users do.
    alias: [
      { find: /^petstore-sandbox\/node$/, replacement: src('node/index.ts') },
      { find: /^petstore-sandbox\/express$/, replacement: src('express/index.ts') },
      { find: /^petstore-sandbox$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
})
