/** Redis and the test bridge for the tests: the shared server at REDIS_URL (skipped when unset). */
import { createClient } from "@redis/client"
import { Redis } from "@upstash/redis"
import { type Bridge, startBridge } from "./bridge.mjs"

export const REDIS_URL = process.env.REDIS_URL

/** A prefix no other test (or helper sharing the server) uses. */
export const uniquePrefix = (label = "test") => `latchkey-test:${label}:${crypto.randomUUID()}:`

/**
 * A connected node-redis client that never throws from its `error` event. RESP2, the protocol
 * whose reply shapes Upstash's REST API gives (node-redis defaults to RESP3).
 */
export async function connect(url: string) {
  const client = createClient({ url, RESP: 2, socket: { connectTimeout: 1000 } })
  client.on("error", () => {})
  await client.connect()
  return client
}

export { type Bridge, startBridge }

/** An `@upstash/redis` client on the bridge, made as the store wants it (raw strings back). */
export function upstashClient(
  bridge: Pick<Bridge, "url" | "token">,
  options: { responseEncoding?: false; enableAutoPipelining?: boolean } = {},
): Redis {
  return new Redis({
    url: bridge.url,
    token: bridge.token,
    automaticDeserialization: false,
    enableTelemetry: false,
    retry: { retries: 0 },
    ...options,
  })
}
