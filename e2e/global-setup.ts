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
/** The fixture cache this process made, and removes at the end (not one it was given). */
let ownCache: string | undefined

/** The cache `scripts/test-lanes.mjs` shares between the projects, else one of our own. */
function fixtureCache(): string {
  const shared = process.env.E2E_FIXTURE_CACHE
  if (shared) return shared
  ownCache = mkdtempSync(join(tmpdir(), "latchkey-fixture-cache-"))
  return ownCache
}

export async function setup(project: TestProject): Promise<void> {
  if (!process.env.E2E_SKIP_BUILD) buildForE2e()
  // `scripts/test-lanes.mjs` runs each project in a process of its own: only what it needs,
  // and one fixture cache for all of them when it gives one.
  const part = process.env.E2E_PART
  const cache = fixtureCache()
  // Packed once here, while the demo starts: every fixture app of the run installs these.
  const [demo] = await Promise.all([
    part && part !== "demo" ? undefined : startDemo(),
    part === "demo" ? undefined : packPackages(cache),
  ])
  server = demo
  project.provide("baseURL", server?.url ?? "")
  project.provide("demoSecret", server?.secret ?? "")
  project.provide("fixtureCache", cache)
}

export async function teardown(): Promise<void> {
  await server?.stop()
  if (ownCache && !process.env.E2E_KEEP_FIXTURES) rmSync(ownCache, { recursive: true, force: true })
}
