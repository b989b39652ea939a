/**
 * The built site over HTTP on a loopback port, as a static host with clean URLs serves it
 * (`/guides/password` → `guides/password.html`, `/design/` → `design/index.html`).
 */
import { readFile } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { extname, join, normalize } from "node:path"

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
}

function candidates(dist: string, pathname: string): string[] {
  const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, "")
  if (path.endsWith("/")) return [join(dist, path, "index.html")]
  return [join(dist, path), join(dist, `${path}.html`)]
}

export async function serve(dist: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost")
    for (const file of candidates(dist, pathname)) {
      const body = await readFile(file).catch(() => null)
      if (!body) continue
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" })
      res.end(body)
      return
    }
    res.writeHead(404, { "content-type": "text/html" }).end(await readFile(join(dist, "404.html")))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
