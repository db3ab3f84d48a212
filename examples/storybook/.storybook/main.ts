import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  framework: '@storybook/react-vite',
  stories: ['../src/**/*.stories.tsx'],
  addons: ['msw-storybook-addon'],
  // `npm run storybook` writes msw's worker script here first (msw init public).
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
}
export default config
