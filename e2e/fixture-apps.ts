/**
 * Fixture apps built the way a user builds one: Qwik's `empty` starter (`fixtures/starter`) plus
 * an overlay of files (`fixtures/<name>`), copied outside this repository so nothing resolves
 * from its `node_modules`, with our packages installed from `npm pack` tarballs by `npm install`.
 * Each app runs under Vite's dev server or as a production build served by `vite preview` (or
 * node-server, as the README says).
 *
 * Once per run, not per app: the packages are packed and each starter is installed with the
 * core and its binding (in the run's cache directory, provided by the global setup); an app is
 * a copy of that install (`node_modules` hard-linked) plus its overlays, and `npm install` runs
 * again only for the packages it adds.
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
  symlinkSync,
  writeFileSync,
} from "node:fs"
import { type AddressInfo, createServer, type Server } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { inject } from "vitest"
import { withDirectoryLock } from "./directory-lock.mjs"

const run = promisify(execFile)
const root = fileURLToPath(new URL("..", import.meta.url))
const fixtures = join(root, "e2e", "fixtures")
const scratch = mkdtempSync(join(tmpdir(), "latchkey-fixtures-"))

/** Vitest runs with NODE_ENV=test, which would make Qwik build a dev bundle. */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_ENV: _, VITEST: __, ...env } = process.env
  return { ...env, npm_config_update_notifier: "false", ...extra }
}

/** The run's cache (tarballs, installed starters): the global setup's, else this file's. */
function cacheDir(): string {
  let dir: string | undefined
  try {
    dir = inject("fixtureCache")
  } catch {
    // Outside a test run (the global setup itself): this module's scratch directory.
  }
  return dir ?? join(scratch, "cache")
}

let tarballs: Promise<Record<string, string>> | undefined

/**
 * `npm pack` of each published package (built by the e2e global setup), once per run: the
 * global setup packs them, and every test file reads the list it wrote.
 */
export function packPackages(dir: string = cacheDir()): Promise<Record<string, string>> {
  tarballs ??= inCacheLock(dir, "packs", async () => {
    const out = join(dir, "packs")
    const manifest = join(out, "packed.json")
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, "utf8"))
    mkdirSync(out, { recursive: true })
    const packed: Record<string, string> = {}
    for (const pkg of ["core", "qwik", "qwik2", "adapter-postgres", "adapter-drizzle"]) {
      const { stdout } = await run("npm", ["pack", "--json", "--pack-destination", out], {
        cwd: join(root, "packages", pkg),
        env: childEnv(),
      })
      const [info] = JSON.parse(stdout) as { name: string; filename: string }[]
      if (!info) throw new Error(`npm pack printed nothing for packages/${pkg}`)
      packed[info.name] = join(out, info.filename)
    }
    writeFileSync(manifest, JSON.stringify(packed))
    return packed
  })
  return tarballs
}

/**
 * `fill` under a lock in the cache: `npm test` runs the e2e projects in processes side by side
 * on one cache (`E2E_FIXTURE_CACHE`), so the first packs and installs and the others find it done.
 */
function inCacheLock<T>(dir: string, name: string, fill: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true })
  return withDirectoryLock(join(dir, `.lock-${name}`), fill)
}

const starters = new Map<string, Promise<string>>()

/**
 * The starter with the core and the binding installed (`npm install -D <tarballs>`), once per
 * run and starter: a directory in the run's cache that apps are copied from.
 */
function installedStarter(qwik: QwikVersion): Promise<string> {
  const key = `${qwik.starter}+${qwik.binding}`
  let pending = starters.get(key)
  if (!pending) {
    pending = inCacheLock(cacheDir(), `starter-${qwik.starter}`, async () => {
      const dir = join(cacheDir(), `starter-${qwik.starter}`)
      const done = join(dir, ".latchkey-installed")
      if (existsSync(done)) return dir
      rmSync(dir, { recursive: true, force: true })
      cpSync(join(fixtures, qwik.starter), dir, { recursive: true })
      const packs = await packPackages()
      await npmInstall(
        dir,
        ["@latchkey/core", qwik.binding].map((spec) => packs[spec] ?? spec),
      )
      writeFileSync(done, "")
      return dir
    })
    starters.set(key, pending)
  }
  return pending
}

async function npmInstall(dir: string, specs: string[]): Promise<void> {
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "-D", ...specs], {
    cwd: dir,
    env: childEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
}

/**
 * A copy of an installed starter: files copied, `node_modules` hard-linked (fast, no space);
 * npm's hidden lockfile is a file of its own, since `npm install` in the app rewrites it.
 */
async function copyInstalled(from: string, to: string): Promise<void> {
  // npm records the tarballs relative to the starter (`file:../packs/…`): the same path must
  // lead to them from the app's directory.
  const packs = join(scratch, "packs")
  if (!existsSync(packs)) symlinkSync(join(cacheDir(), "packs"), packs)
  cpSync(from, to, {
    recursive: true,
    filter: (source) =>
      source !== join(from, "node_modules") && !source.endsWith(".latchkey-installed"),
  })
  await run("cp", ["-al", join(from, "node_modules"), join(to, "node_modules")])
  const hidden = join(to, "node_modules", ".package-lock.json")
  if (existsSync(hidden)) {
    const text = readFileSync(hidden)
    rmSync(hidden)
    writeFileSync(hidden, text)
  }
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
  await copyInstalled(await installedStarter(qwik), dir)
  for (const overlay of overlays) cpSync(join(fixtures, overlay), dir, { recursive: true })
  qwik.prepare?.(dir)
  const packs = await packPackages()
  const wanted = ["@latchkey/core", qwik.binding, ...extraPackages]
  const installed = wanted.map((spec) => packs[spec] ?? spec)
  // The core and the binding are in the copied install; only what this app adds is installed.
  const extras = extraPackages.map((spec) => packs[spec] ?? spec)
  if (extras.length > 0) await npmInstall(dir, extras)
  return { dir, installed }
}

/** `@electric-sql/pglite` at the version this repository tests against. */
export const pglitePackage = () =>
  `@electric-sql/pglite@${installedVersion("@electric-sql/pglite")}`

/**
 * `npx latchkey <args>` in the app, from the installed tarball, as the README says; resolves to
 * what it printed on stdout (a failure rejects with both streams).
 */
export async function latchkeyCommand(
  app: FixtureApp,
  args: string[],
  env: Record<string, string> = {},
): Promise<string> {
  const { stdout } = await run("npx", ["--no-install", "latchkey", ...args], {
    cwd: app.dir,
    env: childEnv(env),
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
}

/** `npx latchkey secret`, as the quick start says. */
export async function newSecret(app: FixtureApp): Promise<string> {
  return (await latchkeyCommand(app, ["secret"])).trim()
}

/** The starter's `build.types` (`tsc --noEmit`): the app's code type-checks as written. */
export async function typeCheck(app: FixtureApp): Promise<void> {
  const tsc = join(app.dir, "node_modules/typescript/bin/tsc")
  await run(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: app.dir, env: childEnv() })
}

/** Ports found by {@link reservePort}, each held by a listening socket until its server starts. */
const reserved = new Map<number, Server>()

/**
 * A free loopback port, held (listened on) until {@link startCommand} starts a server on it. A
 * port only found free can be taken by a server of the other test lane in the minutes a test
 * builds before it serves (or serves dev first, then production); then the server would not
 * start, or the test would talk to another app.
 */
export async function reservePort(): Promise<number> {
  const server = createServer().unref()
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(0, "127.0.0.1", resolve)
  })
  const port = (server.address() as AddressInfo).port
  reserved.set(port, server)
  return port
}

/** Lets a server bind `port`, if {@link reservePort} holds it. */
async function releasePort(port: number): Promise<void> {
  const holder = reserved.get(port)
  if (!holder) return
  reserved.delete(port)
  await new Promise((resolve) => holder.close(resolve))
}

/** A free loopback port, not held: for a port a command binds at once (an inspector's). */
export async function freePort(): Promise<number> {
  const port = await reservePort()
  await releasePort(port)
  return port
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
  await releasePort(port)
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

/**
 * `npm run dev`: Vite's dev server (`vite --mode ssr`), reading `.env`; `env` is what the
 * user's shell exports besides (`DATABASE_URL`, which the app reads from `process.env`).
 */
export async function startDev(
  app: FixtureApp,
  port: number,
  env: Record<string, string> = {},
): Promise<RunningApp> {
  return start(
    app,
    ["--mode", "ssr", "--host", "127.0.0.1", "--port", String(port), "--strictPort"],
    env,
    port,
  )
}

function scriptsOf(app: FixtureApp): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(app.dir, "package.json"), "utf8"))
  return (pkg.scripts ?? {}) as Record<string, string>
}

/**
 * The starter's production build, as a user runs it: its own `npm run build` (Qwik 1's
 * `qwik build`: the type check, ESLint, the client and, with an adapter, the server), then the
 * server entry `vite preview` serves unless the app has an adapter's `serve` script. A starter
 * without a `build` script (Qwik 2's fixture) gets the two Vite builds. Resolves to what the
 * builds printed.
 */
export async function buildProduction(app: FixtureApp): Promise<string> {
  const env = childEnv({ NODE_ENV: "production" })
  const options = { cwd: app.dir, env, maxBuffer: 16 * 1024 * 1024 }
  const scripts = scriptsOf(app)
  let printed = ""
  if (scripts.build !== undefined) {
    printed += await buildOnce(app, env)
    if (scripts.serve === undefined) {
      const preview = await run("npm", ["run", "build.preview"], options)
      printed += preview.stdout + preview.stderr
    }
    return printed
  }
  const vite = join(app.dir, "node_modules/vite/bin/vite.js")
  for (const args of [["build"], ["build", "--ssr", "src/entry.preview.tsx"]]) {
    const { stdout, stderr } = await run(process.execPath, [vite, ...args], options)
    printed += stdout + stderr
  }
  return printed
}

/** Longer than any build seen here, loaded or idle; a build past it has hung. */
const BUILD_HANG_MS = 300_000

/**
 * `npm run build`, once. A build that has not ended after {@link BUILD_HANG_MS} fails the test
 * with what it printed: a hang is a bug (Qwik 1's static generation hung on apps that opened
 * PGlite at import, issue 46), not something to try again.
 */
async function buildOnce(app: FixtureApp, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runGroup("npm", ["run", "build"], app.dir, env, BUILD_HANG_MS)
  if (result.hung) throw new Error(`npm run build hung in ${app.dir}:\n${result.output}`)
  return result.output
}

/**
 * The starter's `build.preview` (Qwik 1: the server entry `vite preview` serves) after
 * {@link buildProduction}, for an app that also has an adapter's `serve` script.
 */
export async function buildPreview(app: FixtureApp): Promise<string> {
  const env = childEnv({ NODE_ENV: "production" })
  const { stdout, stderr } = await run("npm", ["run", "build.preview"], {
    cwd: app.dir,
    env,
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout + stderr
}

/** Runs a command in its own process group; after `limitMs`, ends the whole group (hung). */
function runGroup(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  limitMs: number,
): Promise<{ output: string; hung: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, detached: true })
    let output = ""
    child.stdout.on("data", (chunk) => {
      output += chunk
    })
    child.stderr.on("data", (chunk) => {
      output += chunk
    })
    let hung = false
    const timer = setTimeout(() => {
      hung = true
      process.kill(-child.pid!, "SIGKILL")
    }, limitMs)
    child.on("error", reject)
    child.on("close", (code) => {
      clearTimeout(timer)
      if (hung) resolve({ output, hung })
      else if (code === 0) resolve({ output, hung })
      else reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`))
    })
  })
}

/**
 * The README's production step: `npm run qwik add node-server` (the adapter, its entry and the
 * `serve` script, exactly as Qwik writes them). Then `buildProduction` builds the server and
 * `startNodeServer` runs it.
 */
export async function addNodeServer(app: FixtureApp): Promise<void> {
  if (scriptsOf(app).serve !== undefined) return
  await run("npm", ["run", "qwik", "add", "node-server", "--", "--skipConfirmation=true"], {
    cwd: app.dir,
    env: childEnv(),
    maxBuffer: 16 * 1024 * 1024,
  })
}

/**
 * `npm run serve` (node-server's `node server/entry.node-server`) with the environment the
 * README names: `AUTH_SECRET`, `AUTH_URL` and `PORT`. Qwik's entry listens on every interface
 * (not only loopback) for the length of the test; the tests reach it on 127.0.0.1 only.
 */
export async function startNodeServer(
  app: FixtureApp,
  port: number,
  env: Record<string, string>,
): Promise<RunningApp> {
  const serveEnv = { NODE_ENV: "production", PORT: String(port), ...env }
  return startCommand(app, "npm", ["run", "serve"], serveEnv, port)
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

/** `@types/pg`, as the README's PostgreSQL line installs it: the starter's build type-checks. */
export const pgTypesPackage = () => `@types/pg@${installedVersion("@types/pg")}`

/** `npx latchkey vite`, from the installed tarball: adds Latchkey's Vite plugin. */
export function addVitePlugin(app: FixtureApp): Promise<string> {
  return latchkeyCommand(app, ["vite"])
}
