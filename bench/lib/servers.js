// The servers the per-request tools compare (bench/cpu-per-request.js,
// bench/instructions-per-request.js), named as on their command lines, and the load
// they put on them.
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { freePort, sandboxArgs, startNode, waitFor200 } from './children.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const LIST_PATH = '/v1/pets?limit=20'
export const ENTERPRISE = { authorization: 'Bearer sandbox-enterprise-key' }

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

/** `amount` requests of GET /v1/pets?limit=20 with the enterprise key. */
export const loadList = (port, amount, connections) =>
  autocannon({
    url: `http://127.0.0.1:${port}${LIST_PATH}`,
    headers: ENTERPRISE,
    connections,
    amount,
  })

/**
 * Starts a server (see serverArgs) on a free port and waits for its first 200;
 * `wrap` runs Node under another program (valgrind), `env` adds variables, `wait` sets
 * waitFor200's pace.
 */
export async function startServer(spec, petsFile, { wrap, env, wait } = {}) {
  const port = await freePort()
  const proc = startNode(serverArgs(spec, port, petsFile), { cwd: ROOT, wrap, env })
  await waitFor200(proc, port, LIST_PATH, ENTERPRISE, performance.now(), wait)
  return { spec, port, proc }
}
