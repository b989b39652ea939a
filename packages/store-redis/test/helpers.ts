/** Redis for the tests: the shared server at REDIS_URL, or one started here on a free port. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createServer } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"
import { createClient } from "@redis/client"

export const REDIS_URL = process.env.REDIS_URL

/** Whether `redis-server` can be started by a test (it is on the CI machine). */
export const hasRedisServer = (() => {
  try {
    execFileSync("redis-server", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

/** A prefix no other test (or helper sharing the server) uses. */
export const uniquePrefix = (label = "test") => `latchkey-test:${label}:${crypto.randomUUID()}:`

export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface RedisServer {
  url: string
  port: number
  process: ChildProcess
  /** SIGKILL: the server vanishes mid-conversation, as in a crash. */
  kill(): Promise<void>
}

/**
 * Starts `redis-server` with `args(port)` and waits until it answers as itself (its
 * `process_id`). A port `freePort()` found free can be taken before the server binds it (by
 * another test's server, on a busy CI machine); the server then exits, and it is started again
 * on a new port from `choosePort`. With a fixed port (a restart in place) there is no retry.
 */
export async function spawnRedisServer(
  args: (port: number) => string[],
  {
    choosePort = freePort,
    port: fixedPort,
  }: { choosePort?: () => Promise<number>; port?: number } = {},
): Promise<{ port: number; process: ChildProcess }> {
  for (let attempt = 1; ; attempt++) {
    const port = fixedPort ?? (await choosePort())
    const child = spawn("redis-server", args(port), { stdio: "ignore" })
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
    if (await answersAsItself(port, child, exited)) return { port, process: child }
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL")
      await exited
    }
    if (fixedPort !== undefined || attempt === 5)
      throw new Error(`redis-server did not start on 127.0.0.1:${port} (attempt ${attempt})`)
  }
}

/** True once the server on `port` answers with `child`'s PID; false if `child` exits or 20 s pass. */
async function answersAsItself(port: number, child: ChildProcess, exited: Promise<void>) {
  const deadline = Date.now() + 20_000
  let gone = false
  void exited.then(() => {
    gone = true
  })
  while (!gone && Date.now() < deadline) {
    const pid = await Promise.race([serverPid(port), exited])
    if (pid === child.pid) return true
    await sleep(50)
  }
  return false
}

/** The `process_id` the Redis server on `port` reports, or undefined. */
async function serverPid(port: number): Promise<number | undefined> {
  const probe = createClient({
    url: `redis://127.0.0.1:${port}`,
    socket: { reconnectStrategy: false, connectTimeout: 500 },
  })
  probe.on("error", () => {})
  // Whatever holds the port may accept and never answer: each probe gets a second.
  const timer = setTimeout(() => probe.destroy(), 1_000)
  try {
    await probe.connect()
    const info = await probe.info("server")
    return Number(/process_id:(\d+)/.exec(info)?.[1])
  } catch {
    return undefined // not listening yet
  } finally {
    clearTimeout(timer)
    probe.destroy()
  }
}

/** Starts `redis-server` on a free loopback port (or `port`), without persistence. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const { port: chosen, process: child } = await spawnRedisServer(
    (p) => ["--port", String(p), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { port },
  )
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    process: child,
    kill: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGKILL")
      await exited
    },
  }
}

/** A connected client that never throws from its `error` event (tests assert on commands). */
export async function connect(url: string) {
  const client = createClient({ url, socket: { connectTimeout: 1000 } })
  client.on("error", () => {})
  await client.connect()
  return client
}
