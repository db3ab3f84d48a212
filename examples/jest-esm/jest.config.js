// Jest with native ES modules (msw 3 ships ESM only): no transform, so Jest loads the
// ES modules as they are; package.json runs Jest with --experimental-vm-modules.
export default {
  testEnvironment: 'node',
  transform: {},
}
