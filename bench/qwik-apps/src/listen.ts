/**
 * The bench server, shared by the Qwik 1 and Qwik 2 entries: `node:http` with the framework's
 * Node middleware, as the demo serves itself. Binds loopback only; `PORT=0` (the default) picks a
 * free port, and the printed URL is what `bench/qwik-page.mjs` waits for.
 *
 * `GET /__bench/cpu` answers this process's CPU time (`process.cpuUsage()`, µs) without touching
 * the app: the bench reads it around each run to get server CPU per request, which a neighbour's
 * load on a shared machine moves far less than requests per second.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => unknown

export function listen(middleware: { router: Handler; notFound: Handler; staticFile: Handler }) {
  const { router, notFound, staticFile } = middleware
  const server = createServer((req, res) => {
    if (req.url === "/__bench/cpu") {
      res.setHeader("content-type", "application/json")
      res.end(JSON.stringify(process.cpuUsage()))
      return
    }
    staticFile(req, res, () => {
      router(req, res, () => {
        notFound(req, res, () => {})
      })
    })
  })

  server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
    const { port } = server.address() as AddressInfo
    console.log(`listening on http://127.0.0.1:${port}/`)
  })

  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.close(() => process.exit(0)))
  }
}
