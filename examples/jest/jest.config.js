// msw's documented Jest setup, and nothing else: jest-fixed-jsdom is jsdom with Node's
// fetch globals and Node's export conditions. A test without a DOM says
// `@jest-environment node` in its docblock (see node.test.js).
module.exports = {
  testEnvironment: 'jest-fixed-jsdom',
}
