/**
 * Build the core, the Postgres adapter, the bindings and the demo (skip with `E2E_SKIP_BUILD=1`),
 * then start the demo on a free loopback port with a throw-away secret and database. Tests read
 * its URL with `inject("baseURL")`.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { TestProject } from "vitest/node"
import { type DemoServer, startDemo } from "./demo-server.js"

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string
    /** The default demo's `AUTH_SECRET`, for "no secret in the page" checks. */
    demoSecret: string
  }
}

const root = fileURLToPath(new URL("..", import.meta.url))
let server: DemoServer | undefined

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

export async function setup(project: TestProject): Promise<void> {
  if (!process.env.E2E_SKIP_BUILD) build()
  server = await startDemo()
  project.provide("baseURL", server.url)
  project.provide("demoSecret", server.secret)
}

export async function teardown(): Promise<void> {
  await server?.stop()
}
