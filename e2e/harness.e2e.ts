/**
 * The browser tests' own helpers, where a wrong one makes other suites flaky rather than fail:
 * waiting for a form's answer without JavaScript, a port held until its server starts, and
 * polls that wait for a page as long as the other waits do.
 */
import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createTcpServer } from "node:net"
import { tmpdir } from "node:os"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors } from "./browser.js"
import { reservePort, startCommand } from "./fixture-apps.js"

let browser: Browser
let streaming: Server

beforeAll(async () => {
  browser = await launch()
  // A form whose answer arrives in parts over a second, as Qwik streams a page.
  streaming = createServer((request, response) => {
    response.setHeader("content-type", "text/html")
    if (request.method === "GET") return response.end('<form method="post"><button>Go</button>')
    response.write(`<p>first part</p>${" ".repeat(4096)}`)
    setTimeout(() => response.end('<p data-testid="last">last part</p>'), 1_000)
  })
  await new Promise<void>((resolve) => streaming.listen(0, "127.0.0.1", resolve))
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => streaming?.close(resolve))
  expect(pageErrors.splice(0)).toEqual([])
})

it("clickAndLoad without JavaScript returns once the form's whole answer has loaded", async () => {
  const { port } = streaming.address() as AddressInfo
  const { context, page } = await open(browser, `http://127.0.0.1:${port}`, {
    javaScriptEnabled: false,
  })
  await page.goto("/")
  await clickAndLoad(page, "button")
  // Read at once, not waited for: the page must already hold the answer's last part.
  expect(await page.locator('[data-testid="last"]').count()).toBe(1)
  await context.close()
})

it("reservePort holds the port until startCommand starts a server on it", async () => {
  const port = await reservePort()
  const taken = await new Promise<string>((resolve) => {
    const rival = createTcpServer()
    rival.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"))
    rival.listen(port, "127.0.0.1", () => rival.close(() => resolve("bound")))
  })
  expect(taken).toBe("EADDRINUSE")

  const script = `require("node:http").createServer((q, s) => s.end("ok")).listen(${port}, "127.0.0.1")`
  const server = await startCommand(
    { dir: tmpdir(), installed: [] },
    process.execPath,
    ["-e", script],
    {},
    port,
  )
  try {
    expect(await fetch(`${server.url}/`).then((r) => r.text())).toBe("ok")
  } finally {
    await server.stop()
  }
})

it("expect.poll waits longer than Vitest's 1 s default: the config's poll timeout applies", async () => {
  // A page's answer to a click under load, as the polls of the browser tests wait for it.
  const ready = Date.now() + 1_500
  await expect.poll(() => Date.now() >= ready).toBe(true)
})
