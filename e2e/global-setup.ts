/**
 * Build the core, the Postgres adapter, the bindings and the demo (skip with `E2E_SKIP_BUILD=1`),
 * then start the demo on a free loopback port with a throw-away secret and database, and pack
 * our packages for the fixture apps. Tests read the demo's URL with `inject("baseURL")`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TestProject } from "vitest/node"
import { buildForE2e } from "./build-packages.mjs"
import { type DemoServer, startDemo } from "./demo-server.js"
import { packPackages } from "./fixture-apps.js"

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string
    /** The default demo's `AUTH_SECRET`, for "no secret in the page" checks. */
    demoSecret: string
    /** The run's fixture cache: packed packages and installed starters (`fixture-apps.ts`). */
    fixtureCache: string
  }
}

let server: DemoServer | undefined
let cache: string | undefined

export async function setup(project: TestProject): Promise<void> {
  if (!process.env.E2E_SKIP_BUILD) buildForE2e()
  // `scripts/test-e2e.mjs` runs each project in a process of its own: only what it needs.
  const part = process.env.E2E_PART
  cache = mkdtempSync(join(tmpdir(), "latchkey-fixture-cache-"))
  // Packed once here, while the demo starts: every fixture app of the run installs these.
  const [demo] = await Promise.all([
    part === "apps" ? undefined : startDemo(),
    part === "demo" ? undefined : packPackages(cache),
  ])
  server = demo
  project.provide("baseURL", server?.url ?? "")
  project.provide("demoSecret", server?.secret ?? "")
  project.provide("fixtureCache", cache)
}

export async function teardown(): Promise<void> {
  await server?.stop()
  if (cache && !process.env.E2E_KEEP_FIXTURES) rmSync(cache, { recursive: true, force: true })
}
