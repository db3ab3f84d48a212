import mswManifest from 'msw/package.json' with { type: 'json' }

/**
 * The msw the CLI runs on: the build inlines this manifest with msw itself, so it is the
 * version bundled into dist/cli/index.js, whatever msw the user has installed.
 */
export const BUNDLED_MSW_VERSION: string = mswManifest.version
