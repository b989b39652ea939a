/**
 * A real Redis Cluster on loopback for the tests: three masters and three replicas, each its
 * own `redis-server --cluster-enabled yes` in a temporary directory, joined with
 * `redis-cli --cluster create`. Killed by PID (SIGKILL), frozen (SIGSTOP) and resumed; always
 * torn down (SIGCONT, then SIGKILL) by `stop()`.
 */
import { type ChildProcess, execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { promisify } from "node:util"
import { createCluster } from "@redis/client"
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest"
import { freePort, spawnRedisServer } from "./helpers.js"

const run = promisify(execFile)

export interface ClusterNode {
  port: number
  process: ChildProcess
  id?: string
  role?: "master" | "replica"
  /** Slot ranges a master serves. */
  slots?: [number, number][]
}

export interface TestCluster {
  nodes: ClusterNode[]
  rootNodes: { url: string }[]
  /** One command to one node (redis-cli), e.g. `cli(port, "CLUSTER", "KEYSLOT", "k")`. */
  cli(port: number, ...args: string[]): Promise<string>
  /** SIGSTOP: the node keeps its connections open and answers nothing. */
  freeze(node: ClusterNode): void
  /** SIGCONT. */
  thaw(node: ClusterNode): void
  /** Re-reads roles and slots from CLUSTER NODES (after a failover). */
  refresh(): Promise<void>
  /** The replica that replicates `master` now (INFO replication's master_port). */
  replicaOf(master: ClusterNode): Promise<ClusterNode>
  /** The node currently serving `slot` as master. */
  masterOf(slot: number): ClusterNode
  /** Waits until every live node reports cluster_state:ok and `slot` is served by a live master. */
  waitHealthy(timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

/** A free loopback port whose cluster bus port (+10000) exists too; a taken bus port is retried. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort()
    if (port + 10000 <= 65535) return port
  }
}

const nodeArgs = (dir: string, nodeTimeoutMs: number) => (port: number) => [
  "--port",
  String(port),
  "--bind",
  "127.0.0.1",
  "--cluster-enabled",
  "yes",
  "--cluster-config-file",
  `nodes-${port}.conf`,
  "--cluster-node-timeout",
  String(nodeTimeoutMs),
  "--save",
  "",
  "--appendonly",
  "no",
  "--dir",
  dir,
]

export async function startCluster(options: { nodeTimeoutMs?: number } = {}): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-cluster-"))
  const args = nodeArgs(dir, options.nodeTimeoutMs ?? 1000)
  const started = await Promise.allSettled(
    Array.from({ length: 6 }, () => spawnRedisServer(args, { choosePort: clusterPort })),
  )
  const nodes: ClusterNode[] = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []))
  const ports = nodes.map((node) => node.port)
  const cli = async (port: number, ...args: string[]) =>
    (await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), ...args], { timeout: 10_000 }))
      .stdout

  const stop = async () => {
    for (const node of nodes) {
      if (node.process.exitCode !== null || node.process.signalCode !== null) continue
      const exited = new Promise((resolve) => node.process.once("exit", resolve))
      node.process.kill("SIGCONT")
      node.process.kill("SIGKILL")
      await exited
    }
    rmSync(dir, { recursive: true, force: true })
  }

  const frozen = new Set<ClusterNode>()
  const alive = () =>
    nodes.filter(
      (n) => n.process.exitCode === null && n.process.signalCode === null && !frozen.has(n),
    )

  const refresh = async () => {
    const lines = (await cli(alive()[0]!.port, "CLUSTER", "NODES")).trim().split("\n")
    for (const line of lines) {
      const [id, address, flags, , , , , , ...slots] = line.split(" ")
      const port = Number(address!.split(":")[1]!.split("@")[0])
      const node = nodes.find((n) => n.port === port)
      if (!node) continue
      node.id = id
      node.role = flags!.includes("master") ? "master" : "replica"
      node.slots = slots
        .filter((s) => !s.startsWith("["))
        .map((s) => {
          const [from, to = from] = s.split("-").map(Number)
          return [from!, to!] as [number, number]
        })
    }
  }

  const cluster: TestCluster = {
    nodes,
    rootNodes: ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
    cli,
    refresh,
    freeze(node) {
      frozen.add(node)
      node.process.kill("SIGSTOP")
    },
    thaw(node) {
      node.process.kill("SIGCONT")
      frozen.delete(node)
    },
    async replicaOf(master) {
      for (const node of alive()) {
        if (node === master) continue
        const info = await cli(node.port, "INFO", "replication")
        if (info.includes("role:slave") && info.includes(`master_port:${master.port}\r`))
          return node
      }
      throw new Error(`no replica replicates the master on port ${master.port}`)
    },
    masterOf(slot) {
      const node = nodes.find(
        (n) => n.role === "master" && n.slots?.some(([from, to]) => slot >= from && slot <= to),
      )
      if (!node) throw new Error(`no master serves slot ${slot}`)
      return node
    },
    async waitHealthy(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        try {
          const states = await Promise.all(
            alive().map((n) =>
              cli(n.port, "CLUSTER", "INFO").then((s) => s.includes("cluster_state:ok")),
            ),
          )
          if (states.every(Boolean)) {
            await refresh()
            const masters = nodes.filter((n) => n.role === "master" && alive().includes(n))
            const served = masters.reduce(
              (sum, n) => sum + (n.slots ?? []).reduce((s, [a, b]) => s + b - a + 1, 0),
              0,
            )
            if (served === 16384) return
          }
        } catch {
          // a node still starting (or frozen): ask again
        }
        if (Date.now() > deadline) {
          const view = await cli(alive()[0]!.port, "CLUSTER", "NODES").catch(String)
          throw new Error(`the test cluster did not become healthy:\n${view}`)
        }
        await sleep(100)
      }
    },
    stop,
  }

  try {
    const failed = started.find((s) => s.status === "rejected")
    if (failed) throw failed.reason
    await run(
      "redis-cli",
      [
        "--cluster",
        "create",
        ...ports.map((port) => `127.0.0.1:${port}`),
        "--cluster-replicas",
        "1",
        "--cluster-yes",
      ],
      { timeout: 30_000 },
    )
    await cluster.waitHealthy()
    // Replicas in sync before any test relies on a failover keeping data.
    const deadline = Date.now() + 15_000
    for (;;) {
      const infos = await Promise.all(
        nodes.filter((n) => n.role === "replica").map((n) => cli(n.port, "INFO", "replication")),
      )
      if (infos.every((info) => info.includes("master_link_status:up"))) break
      if (Date.now() > deadline) throw new Error("the test cluster's replicas did not sync")
      await sleep(100)
    }
  } catch (error) {
    await stop()
    throw error
  }
  return cluster
}

/** A cluster client as an app would make one (errors logged, not thrown from the emitter). */
export async function connectCluster(cluster: TestCluster) {
  const client = createCluster({
    rootNodes: cluster.rootNodes,
    defaults: { socket: { connectTimeout: 1000 }, disableOfflineQueue: true },
  })
  client.on("error", () => {})
  await client.connect()
  return client
}
export type ClusterClient = Awaited<ReturnType<typeof connectCluster>>

/**
 * A test cluster (`cluster-node-timeout 1000`) and an app's client to it, for a test file:
 * started before its tests (`"file"`) or before each (`"test"`, for tests that fail a node),
 * and stopped after them once what was handed to `onStop` (stores, clients) is closed.
 */
export function useTestCluster(scope: "file" | "test") {
  let cluster: TestCluster | undefined
  let client: ClusterClient | undefined
  const closers: (() => unknown)[] = []
  const [before, after] = scope === "file" ? [beforeAll, afterAll] : [beforeEach, afterEach]
  before(async () => {
    cluster = await startCluster({ nodeTimeoutMs: 1000 })
    client = await connectCluster(cluster)
  }, 60_000)
  after(async () => {
    for (const close of closers.splice(0)) await close()
    client?.destroy()
    await cluster?.stop()
  }, 30_000)
  return {
    get cluster() {
      return cluster!
    },
    get client() {
      return client!
    },
    onStop(close: () => unknown) {
      closers.push(close)
    },
  }
}
