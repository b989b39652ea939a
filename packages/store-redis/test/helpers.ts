/** Redis for the tests: the shared server at REDIS_URL, or one started here on a free port. */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createServer } from "node:net"
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

/** Starts `redis-server` on a free loopback port, without persistence, and waits for PING. */
export async function startRedisServer(port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort())
  const child = spawn(
    "redis-server",
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  )
  const url = `redis://127.0.0.1:${chosen}`
  const deadline = Date.now() + 10_000
  for (;;) {
    const probe = createClient({ url, socket: { reconnectStrategy: false, connectTimeout: 500 } })
    probe.on("error", () => {})
    try {
      await probe.connect()
      await probe.ping()
      await probe.close()
      break
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill("SIGKILL")
        throw error
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return {
    url,
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
