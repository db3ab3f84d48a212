import js from '@eslint/js'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'test-output/',
      '**/mockServiceWorker.js',
      'bench/results/',
      '.tmp/',
      '.tmp-*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // Node and browser globals differ per folder; TypeScript checks names in .ts and
      // the plain .js scripts run in CI, so no-undef would only add false alarms.
      'no-undef': 'off',
    },
  },
)
