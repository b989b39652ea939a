/**
 * Vercel Edge on this machine: what Vercel does with a Build Output API directory
 * (`.vercel/output`, written by Qwik City's vercel-edge adapter), without Vercel.
 *
 * - The edge function is bundled into one script by esbuild, as Vercel bundles edge functions
 *   on deploy, and runs in `edge-runtime`, the sandbox Vercel's own tooling uses for them: only
 *   the Edge Runtime's globals (no Buffer, no node:* modules), `process.env` for the
 *   environment as on Vercel.
 * - `config.json` routes `{ handle: "filesystem" }` first: a file of `static/` is served as is,
 *   anything else goes to the function.
 *
 * Usage: node serve-vercel-edge.mjs <app dir> <port>; environment variables named in
 * EDGE_ENV_KEYS (comma-separated) reach the function's `process.env`.
 */
import { readFile, stat } from "node:fs/promises"
import { createServer } from "node:http"
import { extname, join, normalize } from "node:path"
import { createHandler, EdgeRuntime } from "edge-runtime"
import { build } from "esbuild"

const [appDir, port] = process.argv.slice(2)
const output = join(appDir, ".vercel/output")
const config = JSON.parse(await readFile(join(output, "config.json"), "utf8"))
if (config.routes?.[0]?.handle !== "filesystem")
  throw new Error("expected filesystem routing first")
const functionDir = join(output, "functions/_qwik-city.func")
const { entrypoint } = JSON.parse(await readFile(join(functionDir, ".vc-config.json"), "utf8"))

const bundled = await build({
  stdin: {
    contents: `import handler from "./${entrypoint}"
addEventListener("fetch", (event) => event.respondWith(handler(event.request)))`,
    resolveDir: functionDir,
  },
  bundle: true,
  write: false,
  format: "iife",
  platform: "neutral",
  conditions: ["edge-light", "worker", "browser"],
  // Qwik City tries node:async_hooks and carries on without it; the sandbox has no modules.
  external: ["node:*"],
  logLevel: "error",
})

const env = Object.fromEntries(
  (process.env.EDGE_ENV_KEYS ?? "").split(",").flatMap((key) => {
    const value = process.env[key]
    return key && value !== undefined ? [[key, value]] : []
  }),
)
const runtime = new EdgeRuntime({
  initialCode: bundled.outputFiles[0].text,
  extend: (context) => Object.assign(context, { process: { env } }),
})
const { handler } = createHandler({ runtime })

const staticDir = join(output, "static")
const types = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".html": "text/html",
  ".txt": "text/plain",
}

/** The file `static/` holds for this path, or undefined (then the function answers). */
async function staticFile(pathname) {
  const path = normalize(join(staticDir, decodeURIComponent(pathname)))
  if (!path.startsWith(`${staticDir}/`)) return undefined
  const info = await stat(path).catch(() => undefined)
  return info?.isFile() ? path : undefined
}

const server = createServer(async (req, res) => {
  const { pathname } = new URL(req.url ?? "/", "http://localhost")
  const file =
    req.method === "GET" || req.method === "HEAD" ? await staticFile(pathname) : undefined
  if (!file) return handler(req, res)
  res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" })
  res.end(req.method === "HEAD" ? undefined : await readFile(file))
}).listen(Number(port), "127.0.0.1", () => {
  // The port it got (port 0 asks for a free one).
  console.log(`Vercel Edge (edge-runtime) listening on http://127.0.0.1:${server.address().port}`)
})
