// A throwaway Redis Cluster on loopback for the bench: three masters and three replicas, each
// its own `redis-server --cluster-enabled yes` in a temporary directory, joined with
// `redis-cli --cluster create`; `stop()` kills exactly these processes by their PIDs.
import { execFile, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

const run = promisify(execFile)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Whether this machine can start one (`redis-server` and `redis-cli` on the PATH). */
export const canStartCluster = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" })
    execFileSync("redis-cli", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

async function freePort() {
  const server = createServer()
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address()
  await new Promise((resolve) => server.close(resolve))
  return port
}

const cli = async (port, ...args) =>
  (await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { timeout: 10_000 }))
    .stdout

/** Starts the cluster and waits until every node says it is healthy and replicas are in sync. */
export async function startCluster() {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-cluster-"))
  const ports = []
  while (ports.length < 6) {
    const port = await freePort() // its cluster bus is port + 10000
    if (port + 10000 <= 65535 && !ports.includes(port)) ports.push(port)
  }
  const processes = ports.map((port) =>
    spawn(
      "redis-server",
      [
        ...["--port", String(port), "--bind", "127.0.0.1", "--cluster-enabled", "yes"],
        ...["--cluster-config-file", `nodes-${port}.conf`, "--save", "", "--appendonly", "no"],
        ...["--dir", dir],
      ],
      { stdio: "ignore" },
    ),
  )
  const stop = async () => {
    for (const child of processes) {
      if (child.exitCode !== null || child.signalCode !== null) continue
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGKILL")
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    for (const port of ports) {
      const deadline = Date.now() + 10_000
      while (!(await cli(port, "PING").catch(() => "")).includes("PONG")) {
        if (Date.now() > deadline) throw new Error(`redis-server on ${port} did not start`)
        await sleep(50)
      }
    }
    const addresses = ports.map((port) => `127.0.0.1:${port}`)
    await run(
      "redis-cli",
      ["--cluster", "create", ...addresses, "--cluster-replicas", "1", "--cluster-yes"],
      {
        timeout: 30_000,
      },
    )
    const deadline = Date.now() + 30_000
    for (;;) {
      const infos = await Promise.all(
        ports.map(
          async (port) =>
            (await cli(port, "CLUSTER", "INFO")) + (await cli(port, "INFO", "replication")),
        ),
      )
      const healthy = infos.every((info) => info.includes("cluster_state:ok"))
      const synced = infos.every(
        (info) => !info.includes("role:slave") || info.includes("master_link_status:up"),
      )
      if (healthy && synced) break
      if (Date.now() > deadline) throw new Error("the bench cluster did not become healthy")
      await sleep(100)
    }
  } catch (error) {
    await stop()
    throw error
  }
  return { rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })), stop }
}
