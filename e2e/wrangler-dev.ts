/**
 * Test workers under `wrangler dev` (real workerd, local Durable Objects), run by the registry's
 * Node 22 of e2e/runtime-tools, on loopback.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { installRuntimeTools, toolBin } from "./runtime-tools/install.mjs"

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0))
    })
  })
}

/**
 * Whether the packages a test worker imports are built: wrangler bundles their `dist/` (it does
 * not read the `latchkey-source` condition the unit tests use). `npm test` builds first.
 */
export function builtPackages(...packages: string[]): boolean {
  return packages.every((name) =>
    existsSync(fileURLToPath(new URL(`../packages/${name}/dist/index.js`, import.meta.url))),
  )
}

export interface Worker {
  url: string
  /** What wrangler and the worker printed (for failure messages and log assertions). */
  output(): string
  stop(): Promise<void>
}

/** `wrangler dev` of test workers (the first config's worker answers the port) on loopback, with its Durable Objects in a scratch dir. */
export async function startWorker(
  workerDir: string,
  configs: string[],
  vars: Record<string, string> = {},
): Promise<Worker> {
  await installRuntimeTools()
  const port = await freePort()
  const state = mkdtempSync(join(tmpdir(), "latchkey-do-"))
  const args = [toolBin("wrangler"), "dev", ...configs.flatMap((c) => ["-c", join(workerDir, c)])]
  args.push("--ip", "127.0.0.1", "--port", String(port), "--persist-to", state)
  args.push("--inspector-port", String(await freePort()), "--show-interactive-dev-session=false")
  // wrangler 4 wants Node >= 22.12: the registry's Node 22 of the runtime tools runs it.
  for (const [name, value] of Object.entries(vars)) args.push("--var", `${name}:${value}`)
  const child: ChildProcess = spawn(toolBin("node"), args, {
    cwd: workerDir,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: state,
      XDG_CONFIG_HOME: join(state, ".config"),
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout?.on("data", (chunk) => (output += chunk))
  child.stderr?.on("data", (chunk) => (output += chunk))
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`)
    if (Date.now() > deadline) throw new Error(`wrangler dev did not answer:\n${output}`)
    // Any answer from the worker (not the proxy's 503 while workerd starts) means it is up.
    const answered = await fetch(url)
      .then((r) => r.status !== 503)
      .catch(() => false)
    if (answered) break
    await new Promise((r) => setTimeout(r, 250))
  }
  return {
    url,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r))
        child.kill("SIGTERM")
        await exited
      }
      rmSync(state, { recursive: true, force: true })
    },
  }
}
