#!/usr/bin/env node
// @ts-check
// The test bridge (./bridge.mjs) as a process, for scripts that need an Upstash-style REST
// endpoint in front of the machine's Redis (the runtime matrix, the bench):
//
//   node packages/store-upstash/test/bridge-cli.mjs [--port N] [--redis-url URL] [--token T]
//
// It prints one JSON line, {"url":"http://127.0.0.1:N","token":"…"}, once it is listening, and
// runs until SIGINT/SIGTERM (or stdin closes, with --exit-on-stdin-close). Loopback only.
import { parseArgs } from "node:util"
import { startBridge } from "./bridge.mjs"

const { values } = parseArgs({
  options: {
    port: { type: "string" },
    "redis-url": { type: "string" },
    token: { type: "string" },
    "exit-on-stdin-close": { type: "boolean" },
  },
})

const bridge = await startBridge({
  redisUrl: values["redis-url"] ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  ...(values.token ? { token: values.token } : {}),
  ...(values.port ? { port: Number(values.port) } : {}),
})
process.stdout.write(`${JSON.stringify({ url: bridge.url, token: bridge.token })}\n`)

let closing = false
const shutdown = async () => {
  if (closing) return
  closing = true
  await bridge.close()
  process.exit(0)
}
process.on("SIGINT", shutdown)
process.on("SIGTERM", shutdown)
if (values["exit-on-stdin-close"]) {
  process.stdin.on("end", shutdown)
  process.stdin.resume()
}
