/**
 * Start the built demo (`examples/qwik-app/scripts/start.mjs`), or the demo under `vite dev`, on
 * a free loopback port with a throw-away secret and database. The global setup starts the default one; suites that need
 * another configuration (JWT sessions, a short recent sign-in window) start their own.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { type AddressInfo, createServer } from "node:net"
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
  return spawnDemo(
    ["examples/qwik-app/scripts/start.mjs"],
    root,
    { NODE_ENV: "production", ...env },
    /listening on (http:\/\/127\.0\.0\.1:\d+)\//,
  )
}

/**
 * The demo under Vite's dev server (`vite --mode ssr`, no build), as a developer runs it. No
 * local OpenID Provider (that is `scripts/start.mjs`'s) and no seeded demo account (the
 * production entry seeds it); everything else is the same app.
 */
export async function startDemoDev(env: Record<string, string> = {}): Promise<DemoServer> {
  const port = String(await freePort())
  const vite = join(root, "node_modules/vite/bin/vite.js")
  const args = [vite, "--mode", "ssr", "--host", "127.0.0.1", "--port", port, "--strictPort"]
  return spawnDemo(
    args,
    join(root, "examples/qwik-app"),
    { NODE_ENV: "development", ...env },
    // Vite colours its banner (the colour codes are stripped before matching).
    new RegExp(`(http://127\\.0\\.0\\.1:${port})/`),
  )
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

function spawnDemo(
  args: string[],
  cwd: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<DemoServer> {
  // A fresh database per server: tests create users and must not see (or leave) anyone else's.
  const dataDir = mkdtempSync(join(tmpdir(), "latchkey-e2e-"))
  const secret = randomBytes(32).toString("base64url")
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: "0",
        AUTH_SECRET: secret,
        LATCHKEY_DATA_DIR: join(dataDir, "pglite"),
        // The suites sign up many accounts from 127.0.0.1; the default (20 mail-sending requests
        // per IP per 15 minutes) would refuse them. Suites that test the limit set their own.
        LATCHKEY_DEMO_MAIL_REQUESTS_PER_IP: "1000",
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
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes
      const match = ready.exec(out.replace(/\x1b\[[0-9;]*m/g, ""))
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
