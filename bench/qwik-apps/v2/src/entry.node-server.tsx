/**
 * `../../src/entry.node-server.tsx` on Qwik 2 (`createQwikRouter` of `@qwik.dev/router`'s Node
 * middleware, which finds the routes itself): `node:http` on loopback, `PORT=0` picks a free
 * port, and the printed URL is what `bench/qwik-page.mjs` waits for.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createQwikRouter } from "@qwik.dev/router/middleware/node"
import render from "./entry.ssr"

const { router, notFound, staticFile } = createQwikRouter({ render })

const server = createServer((req, res) => {
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
