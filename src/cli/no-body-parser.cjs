// The CLI bundle's stand-in for `body-parser`, which Express 5 loads at start-up for
// `express.json()` and its siblings. The sandbox reads request bodies itself
// (src/express/read-body.ts) and the CLI's app mounts no Express body parser, so the
// bundle leaves body-parser out, and with it iconv-lite's 550 KB of charset tables that
// Node parsed at every start. Only the CLI build uses this file (tsup.config.ts); the
// library entries leave express to the user's install, body-parser included.
'use strict'

function notBundled(name) {
  return function () {
    throw new Error(
      `express.${name}() is not part of petstore-sandbox's CLI bundle: the sandbox reads request bodies itself. Use express from your own install for your own apps.`,
    )
  }
}

exports.json = notBundled('json')
exports.raw = notBundled('raw')
exports.text = notBundled('text')
exports.urlencoded = notBundled('urlencoded')
