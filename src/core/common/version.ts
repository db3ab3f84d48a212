/**
 * The package's version, for what the core writes that names its maker (the creator of
 * a HAR). A constant, because the core reads no files and imports nothing but its data
 * (docs/design.md); src/core/common/version.test.ts holds it to package.json's, so a release
 * that bumps one and not the other fails.
 */
export const SANDBOX_VERSION = '0.1.0'
