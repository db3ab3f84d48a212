/**
 * @jest-environment jsdom
 */
// What a project on Jest's plain jsdom environment sees: one message naming the cause
// and the fix, instead of "this is a browser bundle" or "Request is not defined".
test('plain jest-environment-jsdom is refused with the cause and the fix', () => {
  expect(() => require('petstore-sandbox/node')).toThrow(
    /Jest's jsdom environment.*testEnvironment: 'jest-fixed-jsdom'.*testEnvironment: 'node'/,
  )
})
