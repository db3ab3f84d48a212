import { defineConfig } from 'vitest/config'

// One setup file for every environment; a test file that needs a DOM says
// `// @vitest-environment jsdom` (node is the default).
export default defineConfig({
  test: {
    setupFiles: ['./test/setup.ts'],
  },
})
