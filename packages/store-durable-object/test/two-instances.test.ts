/**
 * Two app instances in real workerd: two workers running the same `Auth()` app
 * (`worker/instance.ts`) in one `wrangler dev`, so two isolates with their own memory, sharing
 * a store: the Durable Object store, then the HTTP store (@latchkey/store-upstash) through the
 * test bridge in front of the machine's Redis. A rate limit counts across both and a sign-out on
 * one is refused by the other on its next read (strict revocation). The same requests with the
 * memory store are the control: there each isolate counts and revokes on its own.
 *
 * With DATABASE_URL, both instances also keep users in PostgreSQL (`pg` over
 * `cloudflare:sockets`) and require a second factor: a TOTP code accepted by one is refused by
 * the other, where with the memory store the other accepts it again.
 */
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import {
  enrolTotpAt,
  refusedAcross,
  signOutAcross,
  totpReplayAcross,
} from "../../../e2e/instance-requests.js"
import { builtPackages, startWorker } from "../../../e2e/wrangler-dev.js"
import { startBridge } from "../../store-upstash/test/bridge.mjs"

if (!builtPackages("core", "adapter-postgres", "store-redis", "store-upstash")) {
  describe.skip("two workerd isolates sharing the Durable Object store (build core first: the worker bundles dist/)", () => {
    it("needs npm run build", () => {})
  })
} else {
  const workerDir = fileURLToPath(new URL("./worker/", import.meta.url))
  const databaseUrl = process.env.DATABASE_URL
  const schema = `latchkey_do_${crypto.randomUUID().replaceAll("-", "")}`
  const admin = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined
  if (admin && databaseUrl) {
    // The deploy step, from Node: the schema both instances use.
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    const deploy = new pg.Client({
      connectionString: databaseUrl,
      options: `-c search_path=${schema}`,
    })
    await deploy.connect()
    await migrate(deploy)
    await deploy.end()
  }
  afterAll(async () => {
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    await admin?.end()
  })

  // The HTTP store's endpoint: the test bridge (Upstash's REST API) in front of REDIS_URL.
  const bridge = await startBridge({
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  })
  afterAll(() => bridge.close())

  // Two workers of the same code; A defines the object and B binds it by A's name.
  const vars = {
    AUTH_SECRET: "a-test-secret-shared-by-both-instances-0123456789",
    UPSTASH_URL: bridge.url,
    UPSTASH_TOKEN: bridge.token,
    UPSTASH_PREFIX: `latchkey-edge2-${crypto.randomUUID()}:`,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, SCHEMA: schema } : {}),
  }
  const common = {
    main: join(workerDir, "instance.ts"),
    compatibility_date: "2025-09-01",
    compatibility_flags: ["nodejs_compat"],
  }
  const binding = { name: "LATCHKEY_STORE", class_name: "LatchkeyStoreObject" }
  const configs = mkdtempSync(join(tmpdir(), "latchkey-instances-"))
  writeFileSync(
    join(configs, "a.json"),
    JSON.stringify({
      ...common,
      name: "latchkey-instance-a",
      vars: { ...vars, INSTANCE: "a" },
      durable_objects: { bindings: [binding] },
      migrations: [{ tag: "v1", new_sqlite_classes: ["LatchkeyStoreObject"] }],
      services: [{ binding: "INSTANCE_B", service: "latchkey-instance-b" }],
    }),
  )
  writeFileSync(
    join(configs, "b.json"),
    JSON.stringify({
      ...common,
      name: "latchkey-instance-b",
      vars: { ...vars, INSTANCE: "b" },
      durable_objects: { bindings: [{ ...binding, script_name: "latchkey-instance-a" }] },
    }),
  )
  const worker = await startWorker(configs, ["a.json", "b.json"])
  afterAll(() => worker.stop())

  /** With a database, authorize finds users there: create one (the app's sign-up). */
  async function createUser(email: string) {
    if (!databaseUrl) return
    const users = new pg.Client({
      connectionString: databaseUrl,
      options: `-c search_path=${schema}`,
    })
    await users.connect()
    await PostgresAdapter(users).createUser!({
      id: crypto.randomUUID(),
      email,
      emailVerified: null,
    })
    await users.end()
  }

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

  describe("two workerd isolates sharing the Durable Object store or the HTTP store", () => {
    for (const store of ["shared", "upstash", "memory"] as const) {
      const shared = store !== "memory"
      const named = (title: string) =>
        store === "upstash" ? `HTTP store: ${title}` : shared ? `Durable Object: ${title}` : title

      it(
        shared
          ? named("a limit of 5 attempts per account counts across both instances")
          : "control, memory store: each isolate counts on its own",
        async () => {
          // Shared: attempts 6, 7, 8 are over the limit. Memory: 4 at each, all under it.
          expect(await refusedAcross(send, store, 8)).toBe(shared ? 3 : 0)
        },
      )

      it(
        shared
          ? named("strict: a sign-out on one instance is refused by the other on its next read")
          : databaseUrl
            ? "control, memory store with PostgreSQL: revocation is in the database, so shared too"
            : "control, memory store: the other isolate still reads the signed-out session",
        async () => {
          const email = `bob-${crypto.randomUUID()}@example.com`
          await createUser(email)
          const { before, after } = await signOutAcross(send, store, email)
          expect(before?.user?.email).toBe(email)
          // With the memory store, revocation lives in the isolate that signed out, unless the
          // adapter keeps it (PostgresAdapter has the revocation methods): then it is shared.
          if (shared || databaseUrl) expect(after).toBeNull()
          else expect(after?.user?.email).toBe(email)
        },
      )

      it.skipIf(!databaseUrl)(
        shared
          ? named("a TOTP code accepted by one instance is refused by the other")
          : "control, memory store: the other isolate accepts the same code again",
        async () => {
          const email = `carol-${crypto.randomUUID()}@example.com`
          await createUser(email)
          const secret = await enrolTotpAt(send, store, email)
          const { accepted, replayAccepted, replayError } = await totpReplayAcross(
            send,
            store,
            email,
            secret,
          )
          expect(accepted, worker.output()).toBe(true)
          expect(replayAccepted).toBe(!shared)
          if (shared) expect(replayError).toBe("InvalidTwoFactorCode")
        },
      )
    }
  })
}
