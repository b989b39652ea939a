/**
 * Build the core, the Postgres adapter, the bindings and the demo (skip with `E2E_SKIP_BUILD=1`),
 * then start the demo on a free loopback port with a throw-away secret and database. Tests read
 * its URL with `inject("baseURL")`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string
  }
}

const root = fileURLToPath(new URL("..", import.meta.url))
let server: ChildProcess | undefined
// A fresh database per run: tests create users and must not see (or leave) anyone else's.
const dataDir = mkdtempSync(join(tmpdir(), "latchkey-e2e-"))

function build(): void {
  const workspaces = [
    "@latchkey/core",
    "@latchkey/adapter-postgres",
    "@latchkey/qwik",
    "@latchkey/qwik2",
    "latchkey-example-qwik-app",
  ]
  execFileSync("npm", ["run", "build", ...workspaces.flatMap((w) => ["-w", w])], {
    cwd: root,
    // Vitest sets NODE_ENV=test, which would make Vite build with `import.meta.env.DEV` true
    // (Qwik then emits dev-only preloader paths). Build exactly as `npm run demo` does.
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  })
}

function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["examples/qwik-app/scripts/start.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        HOST: "127.0.0.1",
        PORT: "0",
        AUTH_SECRET: randomBytes(32).toString("base64url"),
        NODE_ENV: "production",
        LATCHKEY_DATA_DIR: join(dataDir, "pglite"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    })
    server = child
    let out = ""
    const timer = setTimeout(() => reject(new Error(`demo did not start:\n${out}`)), 90_000)
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
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

export async function setup(project: TestProject): Promise<void> {
  if (!process.env.E2E_SKIP_BUILD) build()
  project.provide("baseURL", await start())
}

export async function teardown(): Promise<void> {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM")
    await new Promise((r) => server?.once("exit", r))
  }
  rmSync(dataDir, { recursive: true, force: true })
}
