/**
 * Database sessions on Cloudflare's workerd (`wrangler dev`, `nodejs_compat`): `Auth()` with
 * `PostgresAdapter` over `pg` (TCP through `cloudflare:sockets`) to the DATABASE_URL server,
 * in a schema of its own. A passkey registers a new user and opens a database session (a row);
 * sign-out deletes the row, and the cookie reads no session after. Skipped without
 * DATABASE_URL. (PGlite cannot run there: workerd refuses to compile WebAssembly at run time.)
 */
import { fileURLToPath } from "node:url"
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { builtPackages, startWorker, type Worker } from "../../../e2e/wrangler-dev.js"
import { migrate } from "../src/index.js"
import { databaseUrl } from "./helpers.js"

const workerDir = fileURLToPath(new URL("./workerd/", import.meta.url))

describe.skipIf(!databaseUrl || !builtPackages("core", "adapter-postgres"))(
  "database sessions on workerd (pg over cloudflare:sockets)",
  () => {
    const schema = `latchkey_workerd_${crypto.randomUUID().replaceAll("-", "")}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    let worker: Worker | undefined

    afterAll(async () => {
      await worker?.stop()
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await admin.end()
    })

    it("a passkey opens a database session; sign-out deletes its row", async () => {
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${schema}`)
      // The deploy step: migrations from Node (they read SQL files), into the worker's schema.
      const deploy = new pg.Client({
        connectionString: databaseUrl,
        options: `-c search_path=${schema}`,
      })
      await deploy.connect()
      await migrate(deploy)
      await deploy.end()
      worker = await startWorker(workerDir, ["wrangler.jsonc"], {
        DATABASE_URL: databaseUrl!,
        SCHEMA: schema,
        AUTH_SECRET: "a-test-secret-of-at-least-thirty-two-bytes-0123",
      })

      const Auth = (request: Request) => fetch(request, { redirect: "manual" })
      const browser = new PasskeyClient({ Auth, config: {}, origin: worker.url })
      const email = `ann-${crypto.randomUUID()}@example.com`
      const registered = await browser.register(softwareAuthenticator(), { email })
      expect(registered.status, worker.output()).toBe(200)
      expect((await browser.session())?.user?.email).toBe(email)
      const rows = async () =>
        (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.sessions`)).rows[0].n
      expect(await rows()).toBe(1)

      const signOut = await browser.send("/signout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "",
      })
      expect([302, 303]).toContain(signOut.status)
      expect(await rows()).toBe(0)
      expect(await browser.session()).toBeNull()
    })
  },
)
