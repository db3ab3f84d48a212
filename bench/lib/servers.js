// The servers the per-request tools compare (bench/cpu-per-request.js,
// bench/instructions-per-request.js), named as on their command lines, and the requests
// they load them with (bench/run.js sends the same ones).
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { freePort, sandboxArgs, startNode, waitFor200 } from './children.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const LIST_PATH = '/v1/pets?limit=20'
export const ENTERPRISE = { authorization: 'Bearer sandbox-enterprise-key' }
/** A pet every server answers GET /v1/pets/{petId} for: one of the 20 seeded (seed 42). */
export const PET_ID = 7
/** A valid NewPet: every server answers 201. */
export const NEW_PET = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })

/**
 * The requests the per-request tools count, by the name their command lines take. The
 * msw floor answers `list` only; bare Express and the sandbox answer all three.
 */
export const REQUESTS = {
  list: { label: 'GET /v1/pets?limit=20', method: 'GET', path: LIST_PATH },
  get: { label: 'GET /v1/pets/{petId}', method: 'GET', path: `/v1/pets/${PET_ID}` },
  post: { label: 'POST /v1/pets', method: 'POST', path: '/v1/pets', body: NEW_PET },
}

/** Whether the server of `spec` (see serverArgs) answers the request named `name`. */
export const answers = (spec, name) =>
  name === 'list' || spec.split(/[=,]/)[0] !== 'floor'

/** The baselines, as bench/run.js starts them. */
const BASELINES = { bare: 'bare-express.js', floor: 'msw-floor.js' }

/**
 * The Node arguments of a server: `bare` (bench/bare-express.js), `floor`
 * (bench/msw-floor.js), `sandbox` (this checkout's built CLI) or `sandbox=<dir>` (the
 * built CLI of another checkout), on `port`; the baselines answer with `petsFile`.
 */
function serverArgs(spec, port, petsFile) {
  const [kind, dir] = spec.split('=')
  const script = BASELINES[kind]
  if (script === undefined && kind !== 'sandbox')
    throw new Error(`${spec}: a server is bare, floor, sandbox or sandbox=<dir>`)
  return script === undefined
    ? sandboxArgs(resolve(dir ?? ROOT), port)
    : [join(ROOT, 'bench', script), String(port), petsFile]
}

/** `amount` requests of one of REQUESTS (by name) with the enterprise key. */
export function loadRequest(port, name, amount, connections) {
  const { method, path, body } = REQUESTS[name]
  return autocannon({
    url: `http://127.0.0.1:${port}${path}`,
    method,
    headers:
      body === undefined
        ? ENTERPRISE
        : { ...ENTERPRISE, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
    connections,
    amount,
  })
}

/** `amount` requests of GET /v1/pets?limit=20 with the enterprise key. */
export const loadList = (port, amount, connections) =>
  loadRequest(port, 'list', amount, connections)

/**
 * Starts a server (see serverArgs) on a free port and waits for its first 200;
 * `wrap` runs Node under another program (valgrind), `nodeFlags` go to Node before the
 * server's script (V8 flags), `env` adds variables, `wait` sets waitFor200's pace.
 */
export async function startServer(
  spec,
  petsFile,
  { wrap, nodeFlags = [], env, wait } = {},
) {
  const port = await freePort()
  const proc = startNode([...nodeFlags, ...serverArgs(spec, port, petsFile)], {
    cwd: ROOT,
    wrap,
    env,
  })
  await waitFor200(proc, port, LIST_PATH, ENTERPRISE, performance.now(), wait)
  return { spec, port, proc }
}
