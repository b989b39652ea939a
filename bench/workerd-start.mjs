// Start-up of a Worker: the time from spawning a fresh `workerd` process serving one bundle to
// the end of its first successful response. The workerd binary is the one installed in
// node_modules (miniflare's), the config a minimal capnp file written next to the bundle, no
// compatibility flags.
//
// The listening socket is opened here and handed to workerd (`--socket-fd`), and the request is
// sent right after the spawn: it waits in the kernel's accept queue until workerd serves it, so
// no polling interval blurs the figure. Only loopback is used.
import { spawn } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { basename, dirname, join } from "node:path"
import workerd from "workerd"

/** The date the Workers run at (as the runtimes bench's `wrangler dev`). */
const COMPATIBILITY_DATE = "2025-09-01"

export const workerdVersion = workerd.version

/** A capnp config serving `bundle` (one ES module) on the socket "http"; returns its path. */
export function writeWorkerdConfig(bundle) {
  const file = join(dirname(bundle), `${basename(bundle, ".js")}.capnp`)
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${basename(bundle)}")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
);
`,
  )
  return file
}

/** A listening loopback socket nobody accepts on here: its fd and port. */
function listeningSocket() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen({ host: "127.0.0.1", port: 0, backlog: 16 }, () => {
      resolve({ server, fd: server._handle.fd, port: server.address().port })
    })
  })
}

/**
 * CPU time (ms) the threads of process `pid` have run so far, from Linux's per-thread
 * schedstat (nanoseconds on a CPU); undefined where there is no /proc. Unlike the wall time it
 * hardly moves with the machine's load.
 */
function cpuMs(pid) {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`)
    let ns = 0
    for (const task of tasks) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
    }
    return ns / 1e6
  } catch {
    return undefined
  }
}

/**
 * The time from spawning workerd on `config` to the end of the first response to GET `path`:
 * `ms` the wall time, `cpu` the CPU time workerd used until then (both in ms). Throws, with
 * workerd's output, unless that response is a 2xx with a JSON body (the auth endpoint's, not an
 * error page).
 */
export async function timeFirstResponse(config, path) {
  const { server, fd, port } = await listeningSocket()
  const start = performance.now()
  const child = spawn(workerd.default, ["serve", config, "--socket-fd", "http=3"], {
    stdio: ["ignore", "pipe", "pipe", fd],
  })
  // workerd has its own copy of the socket now; this process must never accept on it.
  server.close()
  let log = ""
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (c) => (log += c))
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    const response = await Promise.race([
      fetch(`http://127.0.0.1:${port}${path}`, { headers: { connection: "close" } }),
      exited.then((code) => Promise.reject(new Error(`workerd exited (${code})`))),
    ])
    const body = await response.text()
    const ms = performance.now() - start
    const cpu = cpuMs(child.pid)
    if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 300)}`)
    JSON.parse(body)
    return { ms, cpu }
  } catch (error) {
    throw new Error(`${config}: ${error.message}\n${log}`)
  } finally {
    child.kill("SIGKILL")
    await exited
  }
}
