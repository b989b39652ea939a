/**
 * Start the built demo (`examples/qwik-app/scripts/start.mjs`) on a free loopback port with a
 * throw-away secret and database. The global setup starts the default one; suites that need
 * another configuration (JWT sessions, a short recent sign-in window) start their own.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("..", import.meta.url))

export interface DemoServer {
  /** `http://127.0.0.1:<port>` as the server reports it. */
  url: string
  /** The `AUTH_SECRET` it runs with (tests look for it in pages and bundles). */
  secret: string
  process: ChildProcess
  stop(): Promise<void>
}

export function startDemo(env: Record<string, string> = {}): Promise<DemoServer> {
  // A fresh database per server: tests create users and must not see (or leave) anyone else's.
  const dataDir = mkdtempSync(join(tmpdir(), "latchkey-e2e-"))
  const secret = randomBytes(32).toString("base64url")
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["examples/qwik-app/scripts/start.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: "0",
        AUTH_SECRET: secret,
        NODE_ENV: "production",
        LATCHKEY_DATA_DIR: join(dataDir, "pglite"),
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once("exit", r))
        child.kill("SIGTERM")
        await exited
      }
      rmSync(dataDir, { recursive: true, force: true })
    }
    let out = ""
    const timer = setTimeout(() => reject(new Error(`demo did not start:\n${out}`)), 90_000)
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve({ url: match[1], secret, process: child, stop })
      }
    })
    child.stderr?.on("data", (chunk: Buffer) => {
      out += chunk
      if (process.env.E2E_SERVER_LOG) process.stderr.write(chunk)
    })
    child.on("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`demo exited with ${code}:\n${out}`))
    })
  })
}
