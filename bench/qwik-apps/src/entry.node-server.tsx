/**
 * The bench server: `node:http` with Qwik City's Node middleware, as the demo serves itself. Binds
 * loopback only; `PORT=0` (the default) picks a free port, and the printed URL is what
 * `bench/qwik-page.mjs` waits for.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import render from "./entry.ssr"

const { router, notFound, staticFile } = createQwikCity({ render, qwikCityPlan })

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
