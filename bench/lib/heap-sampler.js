// Preloaded into a server by bench/allocations-per-request.js (NODE_OPTIONS=--import):
// counts the requests the server starts (Node's `http.server.request.start` channel),
// samples every allocation of the HEAP_REQUESTS requests after the first HEAP_WARM,
// collected ones included, and writes V8's sampling profile to HEAP_OUT.
import { subscribe } from 'node:diagnostics_channel'
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const warm = Number(process.env.HEAP_WARM)
const last = warm + Number(process.env.HEAP_REQUESTS)
const session = new Session()
session.connect()
let seen = 0

subscribe('http.server.request.start', () => {
  seen += 1
  if (seen === warm) {
    session.post('HeapProfiler.enable', () =>
      session.post('HeapProfiler.startSampling', {
        samplingInterval: 256,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      }),
    )
  } else if (seen === last) {
    session.post('HeapProfiler.stopSampling', (error, result) => {
      writeFileSync(
        process.env.HEAP_OUT,
        error ? JSON.stringify({ error: String(error) }) : JSON.stringify(result.profile),
      )
    })
  }
})
