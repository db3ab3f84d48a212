import { defineConfig } from 'vitest/config'

// One setup file for every environment; each test file picks its environment with a
// `// @vitest-environment` comment (node is the default).
export default defineConfig({
  test: {
    setupFiles: ['./test/setup.ts'],
  },
})
