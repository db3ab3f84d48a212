import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'node/index': 'src/node/index.ts',
    'browser/index': 'src/browser/index.ts',
    'browser/wrong-runtime': 'src/browser/wrong-runtime.ts',
    'node/wrong-runtime': 'src/node/wrong-runtime.ts',
    'express/wrong-runtime': 'src/express/wrong-runtime.ts',
    'express/index': 'src/express/index.ts',
    'cli/index': 'src/cli/index.ts',
  },
  format: ['esm'],
  target: 'node20',
  platform: 'neutral',
  dts: {
    entry: {
      index: 'src/index.ts',
      'node/index': 'src/node/index.ts',
      'browser/index': 'src/browser/index.ts',
      'express/index': 'src/express/index.ts',
    },
  },
  splitting: true,
  sourcemap: true,
  clean: true,
  // Dependencies and the msw peer stay external; the JSON fixtures and scenarios are
  // bundled so the browser entry has them without a file system.
  external: [/^node:/],
})
