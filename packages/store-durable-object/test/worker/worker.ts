/**
 * The test worker: the Durable Object class, and a fetch handler that runs one `Store` method
 * of a `DurableObjectStore` on its binding per request, so the contract suite in Node drives the
 * real object in real workerd (`wrangler dev`) over loopback.
 */
import { DurableObjectStore, LatchkeyStoreObject } from "../../src/index.js"

export { LatchkeyStoreObject }

interface Env {
  LATCHKEY_STORE: ConstructorParameters<typeof DurableObjectStore>[0]["namespace"]
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== "POST") return new Response("POST a store call", { status: 405 })
    const { name, method, args } = (await request.json()) as {
      name?: string
      method: string
      args: unknown[]
    }
    // Four objects, so the suite's keys land on several and getMany spans them.
    const store = new DurableObjectStore({ namespace: env.LATCHKEY_STORE, shards: 4, name })
    const call = (store as unknown as Record<string, (...a: unknown[]) => unknown>)[method]
    if (typeof call !== "function") return Response.json({ error: { type: "NoSuchMethod" } })
    try {
      const result = await call.apply(store, args)
      return Response.json({ result: result ?? null })
    } catch (thrown) {
      const error = thrown as { type?: string; name?: string; message?: string; parameter?: string }
      return Response.json({
        error: {
          type: error.type ?? error.name,
          message: error.message,
          parameter: error.parameter,
        },
      })
    }
  },
}
