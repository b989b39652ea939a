/**
 * The runtimes Qwik City deploys to, each serving a fixture app built with its Qwik City adapter
 * (`fixtures/runtime-adapters`, the files `qwik add <adapter>` writes). Every runtime comes from
 * the npm registry (`runtime-tools/`, pinned by its own lock and installed by `npm ci` on first
 * use, apart from the repository's dependencies so its Node 22 never shadows the machine's
 * Node). Nothing here reaches any host but loopback.
 */
import { execFile } from "node:child_process"
import { cpSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { type FixtureApp, freePort, type RunningApp, startCommand } from "./fixture-apps.js"
import { toolBin as bin, installRuntimeTools, toolsDir } from "./runtime-tools/install.mjs"

export { installRuntimeTools }

const run = promisify(execFile)

/** The production client build (`vite build`), shared by every adapter's server build. */
export async function buildClient(app: FixtureApp): Promise<void> {
  await vite(app, ["build"])
  cpSync(join(app.dir, "dist"), join(app.dir, "dist.client"), { recursive: true })
}

/**
 * `vite build -c adapters/<adapter>/vite.config.ts`, as the adapter's `build.server` runs, on a
 * fresh copy of the client build: adapters write into `dist/` (Cloudflare's `_worker.js`,
 * prerendered pages) or move it away (Vercel), and no adapter should see another's output.
 */
export async function buildServer(app: FixtureApp, adapter: string): Promise<void> {
  rmSync(join(app.dir, "dist"), { recursive: true, force: true })
  cpSync(join(app.dir, "dist.client"), join(app.dir, "dist"), { recursive: true })
  await vite(app, ["build", "-c", `adapters/${adapter}/vite.config.ts`])
}

async function vite(app: FixtureApp, args: string[]): Promise<void> {
  const { NODE_ENV: _, VITEST: __, ...env } = process.env
  await run(process.execPath, [join(app.dir, "node_modules/vite/bin/vite.js"), ...args], {
    cwd: app.dir,
    env: { ...env, NODE_ENV: "production" },
    maxBuffer: 16 * 1024 * 1024,
  })
}

/** What every runtime gets: the secret and the app's URL (the quick start's `.env`), and any
 * other variable an app reads through `event.env`. */
export interface AppEnv {
  AUTH_SECRET: string
  AUTH_URL: string
  [name: string]: string
}

export interface Runtime {
  /** How the tests name it. */
  name: string
  /** The Qwik City adapter (`adapters/<adapter>/vite.config.ts` of the fixture). */
  adapter: string
  /** The platform serves one app from many isolates (Cloudflare Workers, Vercel Edge). */
  isolates: boolean
  start(app: FixtureApp, port: number, env: AppEnv): Promise<RunningApp>
}

/** In the order the tests run them. */
export const RUNTIMES: Runtime[] = [
  {
    name: "Node (node-server)",
    adapter: "node-server",
    isolates: false,
    start: (app, port, env) =>
      startCommand(
        app,
        process.execPath,
        ["server/entry.node-server.js"],
        portEnv(port, env),
        port,
      ),
  },
  {
    name: "Deno",
    adapter: "deno",
    isolates: false,
    start: (app, port, env) => {
      // deno.json maps the middleware's https://deno.land/std import to a local module.
      const args = ["run", "--no-lock", "--config", "deno.json", "--allow-net=127.0.0.1"]
      args.push("--allow-read=.", "--allow-env", "server/entry.deno.js")
      const denoEnv = { DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(app.dir, ".deno") }
      return startCommand(app, bin("deno"), args, { ...portEnv(port, env), ...denoEnv }, port)
    },
  },
  {
    name: "Bun",
    adapter: "bun",
    isolates: false,
    start: (app, port, env) =>
      startCommand(app, bin("bun"), ["server/entry.bun.js"], portEnv(port, env), port),
  },
  {
    name: "Cloudflare Pages (wrangler pages dev, workerd, no compatibility flags)",
    adapter: "cloudflare-pages",
    isolates: true,
    start: async (app, port, env) => {
      // Local secrets of a Pages project live in .dev.vars, as Cloudflare's docs say.
      const vars = Object.entries(env).map(([key, value]) => `${key}=${value}\n`)
      writeFileSync(join(app.dir, ".dev.vars"), vars.join(""))
      const args = [bin("wrangler"), "pages", "dev", "dist", "--ip", "127.0.0.1"]
      args.push("--port", String(port), "--inspector-port", String(await freePort()))
      args.push("--compatibility-date", "2025-09-01", "--show-interactive-dev-session=false")
      // wrangler 4 wants Node >= 22.12: the registry's Node 22 runs it, for this step only.
      return startCommand(app, bin("node"), args, wranglerEnv(app), port)
    },
  },
  {
    name: "Vercel Edge (edge-runtime)",
    adapter: "vercel-edge",
    isolates: true,
    start: (app, port, env) => {
      const script = join(toolsDir, "serve-vercel-edge.mjs")
      const edgeEnv = { ...env, EDGE_ENV_KEYS: Object.keys(env).join(",") }
      return startCommand(app, process.execPath, [script, app.dir, String(port)], edgeEnv, port)
    },
  },
]

/**
 * The runtimes to run: all, or those whose adapter `E2E_RUNTIMES` names (comma-separated, e.g.
 * `cloudflare-pages,vercel-edge`), so one can be worked on without building the others.
 */
export function selectedRuntimes(runtimes: Runtime[] = RUNTIMES): Runtime[] {
  const wanted = process.env.E2E_RUNTIMES?.split(",").filter(Boolean)
  return wanted ? runtimes.filter((r) => wanted.includes(r.adapter)) : runtimes
}

function portEnv(port: number, env: AppEnv): Record<string, string> {
  return { ...env, PORT: String(port) }
}

/** No telemetry, no download of Cloudflare's request.cf data, wrangler's files in the app. */
export function wranglerEnv(app: FixtureApp): Record<string, string> {
  return {
    WRANGLER_SEND_METRICS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    XDG_CONFIG_HOME: join(app.dir, ".config"),
    PATH: `${join(toolsDir, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
  }
}

/**
 * `wrangler pages dev` of the app's Cloudflare build on a reserved `port` (its `.dev.vars` read
 * by wrangler), answering at `localhost`: an IP address cannot be a passkey's relying party.
 */
export async function startPagesDev(app: FixtureApp, port: number): Promise<RunningApp> {
  const args = [bin("wrangler"), "pages", "dev", "--ip", "127.0.0.1", "--port", String(port)]
  args.push("--inspector-port", String(await freePort()), "--show-interactive-dev-session=false")
  const started = await startCommand(app, bin("node"), args, wranglerEnv(app), port)
  return { ...started, url: `http://localhost:${port}` }
}

/** `wrangler <args>` (the runtime tools' Node 22 runs it) in the app, on its local D1. */
export async function wrangler(app: FixtureApp, args: string[]) {
  const { NODE_ENV: _, VITEST: __, ...rest } = process.env
  return await run(bin("node"), [bin("wrangler"), ...args], {
    cwd: app.dir,
    env: { ...rest, ...wranglerEnv(app) },
    maxBuffer: 16 * 1024 * 1024,
  })
}

/** The mails a Resend-compatible server received, read as an inbox (oldest to `to` first). */
export function resendInbox(mails: { to: string[]; subject: string; text?: string }[]) {
  return {
    async nextMail(to: string) {
      const at = mails.findIndex((mail) => mail.to.includes(to))
      if (at < 0) throw new Error(`no mail to ${to}`)
      const [mail] = mails.splice(at, 1)
      return { subject: mail!.subject, text: mail!.text ?? "" }
    },
  }
}
