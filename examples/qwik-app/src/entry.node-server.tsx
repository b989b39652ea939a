/**
 * Production server of the demo: plain `node:http` with Qwik City's Node middleware. Listens on
 * loopback only (`HOST`, default 127.0.0.1) and `PORT` (default 5173; 0 picks a free port), and
 * prints its URL once the database is ready and the server listens (the e2e harness waits for
 * that line). With `AUTH_URL` set, the URL printed is AUTH_URL's: cookies and redirects use its
 * host, so opening the app on another one (127.0.0.1 for localhost) would look signed out.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { createQwikCity } from "@builder.io/qwik-city/middleware/node"
import qwikCityPlan from "@qwik-city-plan"
import render from "./entry.ssr"
import { DEMO_EMAIL, DEMO_PASSWORD } from "./lib/demo-account"
import { prepareUserStore } from "./lib/users"

const { router, notFound, staticFile } = createQwikCity({
  render,
  qwikCityPlan,
  static: { cacheControl: "public, max-age=31536000, immutable" },
})

const server = createServer((req, res) => {
  staticFile(req, res, () => {
    router(req, res, () => {
      notFound(req, res, () => {})
    })
  })
})

const host = process.env.HOST ?? "127.0.0.1"
const port = Number(process.env.PORT ?? 5173)

// Open (and on first run create) the database before taking requests.
await prepareUserStore()

server.listen(port, host, () => {
  const address = server.address() as AddressInfo
  const listening = `http://${host}:${address.port}`
  console.log(`Demo account: ${DEMO_EMAIL} / ${DEMO_PASSWORD}`)
  console.log(`Latchkey demo listening on ${authUrlOrigin() ?? listening}/`)
})

/** `AUTH_URL`'s origin, the one address where signing in works, or none when it is unset. */
function authUrlOrigin(): string | undefined {
  const url = process.env.AUTH_URL
  return url && URL.canParse(url) ? new URL(url).origin : undefined
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => server.close(() => process.exit(0)))
}
