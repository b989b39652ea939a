/**
 * Fixture apps built the way a user builds one: Qwik's `empty` starter (`fixtures/starter`) plus
 * an overlay of files (`fixtures/<name>`), copied outside this repository so nothing resolves
 * from its `node_modules`, with our packages installed from `npm pack` tarballs by `npm install`.
 * Each app runs under Vite's dev server or as a production build served by `vite preview`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const run = promisify(execFile)
const root = fileURLToPath(new URL("..", import.meta.url))
const fixtures = join(root, "e2e", "fixtures")
const scratch = mkdtempSync(join(tmpdir(), "latchkey-fixtures-"))

/** Vitest runs with NODE_ENV=test, which would make Qwik build a dev bundle. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_ENV: _, VITEST: __, ...env } = process.env
  return { ...env, npm_config_update_notifier: "false", ...extra }
}

let tarballs: Promise<Record<string, string>> | undefined

/** `npm pack` of each published package (built by the e2e global setup), once per run. */
export function packPackages(): Promise<Record<string, string>> {
  tarballs ??= (async () => {
    const out = join(scratch, "packs")
    mkdirSync(out, { recursive: true })
    const packed: Record<string, string> = {}
    for (const dir of ["core", "qwik", "qwik2", "adapter-postgres"]) {
      const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", out], {
        cwd: join(root, "packages", dir),
        env: childEnv(),
      })
      const [info] = JSON.parse(stdout) as { name: string; filename: string }[]
      if (!info) throw new Error(`npm pack printed nothing for packages/${dir}`)
      packed[info.name] = join(out, info.filename)
    }
    return packed
  })()
  return tarballs
}

/** A version of a package this repository installed: the fixtures use the same ones. */
function installedVersion(name: string): string {
  const pkg = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"))
  return pkg.version as string
}

export interface FixtureApp {
  dir: string
  /** What `npm install` was run with, as a user would type it (tarballs for our packages). */
  installed: string[]
}

/** Which Qwik an app is built on: its starter, Latchkey's binding for it, a step after copying. */
export interface QwikVersion {
  starter: string
  binding: string
  prepare?: (dir: string) => void
}

/** Qwik 1 (`@builder.io/qwik`, `@builder.io/qwik-city`, `@latchkey/qwik`). */
export const qwik1: QwikVersion = { starter: "starter", binding: "@latchkey/qwik" }

/**
 * Copy the starter and the overlays (later ones win) and install the dev dependencies the
 * README's quick start names. `extraPackages` are Latchkey packages (by name) and others
 * (`name@version`).
 */
export async function createApp(
  name: string,
  overlays: string[],
  extraPackages: string[] = [],
  qwik: QwikVersion = qwik1,
): Promise<FixtureApp> {
  const dir = join(scratch, name)
  cpSync(join(fixtures, qwik.starter), dir, { recursive: true })
  for (const overlay of overlays) cpSync(join(fixtures, overlay), dir, { recursive: true })
  qwik.prepare?.(dir)
  const packs = await packPackages()
  const wanted = ["@latchkey/core", qwik.binding, ...extraPackages]
  const installed = wanted.map((spec) => packs[spec] ?? spec)
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "-D", ...installed], {
    cwd: dir,
    env: childEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
  return { dir, installed }
}

/** `@electric-sql/pglite` at the version this repository tests against. */
export const pglitePackage = () =>
  `@electric-sql/pglite@${installedVersion("@electric-sql/pglite")}`

/** `npx latchkey secret`, from the installed tarball, as the quick start says. */
export async function newSecret(app: FixtureApp): Promise<string> {
  const { stdout } = await run("npx", ["--no-install", "latchkey", "secret"], {
    cwd: app.dir,
    env: childEnv(),
  })
  return stdout.trim()
}

/** The starter's `build.types` (`tsc --noEmit`): the app's code type-checks as written. */
export async function typeCheck(app: FixtureApp): Promise<void> {
  const tsc = join(app.dir, "node_modules/typescript/bin/tsc")
  await run(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: app.dir, env: childEnv() })
}

/** A free loopback port (there is a small race until the server binds it; fine for tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })
}

export interface RunningApp {
  url: string
  /** Everything the server printed, for assertions on logs (no token or secret). */
  output(): string
  stop(): Promise<void>
}

function waitForHttp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  return new Promise((resolve, reject) => {
    const attempt = async () => {
      if (child.exitCode !== null) return reject(new Error(`server exited:\n${log()}`))
      try {
        // `vite preview` answers 404 until the server entry has finished loading (a top-level
        // `await migrate(db)` included): wait for the page itself.
        const response = await fetch(url, { redirect: "manual" })
        if (response.status === 200) return resolve()
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error(`server did not answer:\n${log()}`))
      setTimeout(attempt, 250)
    }
    void attempt()
  })
}

async function start(app: FixtureApp, args: string[], env: Record<string, string>, port: number) {
  const vite = join(app.dir, "node_modules/vite/bin/vite.js")
  return startCommand(app, process.execPath, [vite, ...args], env, port)
}

/**
 * Run `command` in the app's directory as its server on `port`, and wait until `/` answers 200.
 * It runs in a process group of its own, and `stop()` ends the whole group: servers such as
 * `wrangler` start children (workerd) that must not outlive the test.
 */
export async function startCommand(
  app: FixtureApp,
  command: string,
  args: string[],
  env: Record<string, string>,
  port: number,
): Promise<RunningApp> {
  const child = spawn(command, args, {
    cwd: app.dir,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  })
  let out = ""
  child.stdout?.on("data", (chunk: Buffer) => {
    out += chunk
  })
  child.stderr?.on("data", (chunk: Buffer) => {
    out += chunk
    if (process.env.E2E_SERVER_LOG) process.stderr.write(chunk)
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    process.kill(-child.pid, "SIGTERM")
    await exited
  }
  const url = `http://127.0.0.1:${port}`
  try {
    await waitForHttp(`${url}/`, child, () => out)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, output: () => out, stop }
}

/** `.env` as the quick start writes it: the secret and the app's URL. */
export function writeDotEnv(app: FixtureApp, values: Record<string, string>): void {
  const lines = Object.entries(values).map(([key, value]) => `${key}=${value}`)
  writeFileSync(join(app.dir, ".env"), `${lines.join("\n")}\n`)
}

/** `npm run dev`: Vite's dev server (`vite --mode ssr`), reading `.env`. */
export async function startDev(app: FixtureApp, port: number): Promise<RunningApp> {
  return start(
    app,
    ["--mode", "ssr", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    {},
    port,
  )
}

/**
 * The starter's production build: client, then the server entry `vite preview` serves.
 * Resolves to what the builds printed.
 */
export async function buildProduction(app: FixtureApp): Promise<string> {
  const vite = join(app.dir, "node_modules/vite/bin/vite.js")
  const env = childEnv({ NODE_ENV: "production" })
  let printed = ""
  for (const args of [["build"], ["build", "--ssr", "src/entry.preview.tsx"]]) {
    const options = { cwd: app.dir, env, maxBuffer: 16 * 1024 * 1024 }
    const { stdout, stderr } = await run(process.execPath, [vite, ...args], options)
    printed += stdout + stderr
  }
  return printed
}

/** `vite preview` of the production build; production reads the environment, not `.env`. */
export async function startProduction(
  app: FixtureApp,
  port: number,
  env: Record<string, string>,
): Promise<RunningApp> {
  const args = ["preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"]
  return start(app, args, { NODE_ENV: "production", ...env }, port)
}

/** The files of the client build (what a browser could download) that match `pattern`. */
export function clientFilesMatching(app: FixtureApp, pattern: RegExp): string[] {
  return filesMatching(join(app.dir, "dist"), pattern)
}

/** The files of the server build that match `pattern`. */
export function serverFilesMatching(app: FixtureApp, pattern: RegExp): string[] {
  return filesMatching(join(app.dir, "server"), pattern)
}

function filesMatching(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) throw new Error(`${dir} does not exist: build first`)
  const found: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) found.push(...filesMatching(path, pattern))
    else if (pattern.test(readFileSync(path, "latin1"))) found.push(path.slice(dir.length + 1))
  }
  return found
}

/** Remove every fixture app of this run. */
export function removeFixtures(): void {
  rmSync(scratch, { recursive: true, force: true })
}

/** `pg` at the version this repository tests against. */
export const pgPackage = () => `pg@${installedVersion("pg")}`

/** `npx latchkey vite`, from the installed tarball: adds Latchkey's Vite plugin. */
export async function addVitePlugin(app: FixtureApp): Promise<string> {
  const { stdout } = await run("npx", ["--no-install", "latchkey", "vite"], {
    cwd: app.dir,
    env: childEnv(),
  })
  return stdout
}
