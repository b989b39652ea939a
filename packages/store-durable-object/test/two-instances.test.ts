/**
 * Two app instances in real workerd: two workers running the same `Auth()` app
 * (`worker/instance.ts`) in one `wrangler dev`, so two isolates with their own memory, sharing
 * the Durable Object store. A rate limit counts across both and a sign-out on one is refused by
 * the other on its next read (strict revocation). The same requests with the memory store are
 * the control: there each isolate counts and revokes on its own.
 *
 * A TOTP code accepted once across two instances needs a database both reach (the second
 * factor's secret is the user's); workerd reaches none here, so that runs in contract.test.ts
 * with two `Auth()` instances in Node sharing the object in workerd.
 */
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { builtPackages, startWorker } from "../../../e2e/wrangler-dev.js"

if (!builtPackages("core")) {
  describe.skip("two workerd isolates sharing the Durable Object store (build core first: the worker bundles dist/)", () => {
    it("needs npm run build", () => {})
  })
} else {
  const workerDir = fileURLToPath(new URL("./worker/", import.meta.url))
  const worker = await startWorker(workerDir, ["instance-a.jsonc", "instance-b.jsonc"])
  afterAll(() => worker.stop())

  type Instance = "a" | "b"

  /** One request to an instance; the instance that answered is checked. */
  async function send(instance: Instance, store: string, path: string, init: RequestInit = {}) {
    const headers = new Headers(init.headers)
    headers.set("x-store", store)
    if (instance === "b") headers.set("x-instance", "b")
    const response = await fetch(`${worker.url}/auth${path}`, {
      ...init,
      headers,
      redirect: "manual",
    })
    expect(response.headers.get("x-instance")).toBe(instance)
    return response
  }

  const form = (body: Record<string, string>, cookie = ""): RequestInit => ({
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "sec-fetch-site": "same-origin",
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams(body),
  })

  async function attempt(instance: Instance, store: string, email: string) {
    const res = await send(instance, store, "/callback/credentials", form({ email, password: "x" }))
    return new URL(res.headers.get("location") ?? "", worker.url).searchParams.get("error")
  }

  function sessionCookie(res: Response): string {
    const line = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))
    if (!line) throw new Error("no session cookie")
    return line.split(";")[0]!
  }

  async function session(instance: Instance, store: string, cookie: string) {
    return (await send(instance, store, "/session", { headers: { cookie } })).json()
  }

  describe("two workerd isolates sharing the Durable Object store", () => {
    for (const store of ["shared", "memory"] as const) {
      const shared = store === "shared"

      it(
        shared
          ? "a limit of 5 attempts per account counts across both instances"
          : "control, memory store: each isolate counts on its own",
        async () => {
          const email = `ann-${crypto.randomUUID()}@example.com`
          const answers: (string | null)[] = []
          for (let i = 0; i < 8; i++) answers.push(await attempt(i % 2 ? "b" : "a", store, email))
          const refused = answers.filter((a) => a === "RateLimited").length
          // Shared: attempts 6, 7, 8 are over the limit. Memory: 4 at each, all under it.
          expect(refused).toBe(shared ? 3 : 0)
        },
      )

      it(
        shared
          ? "strict: a sign-out on one instance is refused by the other on its next read"
          : "control, memory store: the other isolate still reads the signed-out session",
        async () => {
          const email = `bob-${crypto.randomUUID()}@example.com`
          const signedIn = await send(
            "a",
            store,
            "/callback/credentials",
            form({ email, password: "right" }),
          )
          const cookie = sessionCookie(signedIn)
          expect((await session("b", store, cookie))?.user?.email).toBe(email)
          await send("a", store, "/signout", form({}, cookie))
          const after = await session("b", store, cookie)
          if (shared) expect(after).toBeNull()
          else expect(after?.user?.email).toBe(email)
        },
      )
    }
  })
}
