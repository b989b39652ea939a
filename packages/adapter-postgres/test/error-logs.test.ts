/**
 * No SQL parameter value reaches a log. With `hashSessionTokens: false` (the setting for
 * Auth.js databases) parameters are raw session tokens; a failing insert and a failing read go
 * through `Auth()`, and everything the app's logger receives — causes included — is searched.
 */
import { inspect } from "node:util"
import { Auth } from "@latchkey/core"
import { AdapterError } from "@latchkey/core/errors"
import Credentials from "@latchkey/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { req } from "../../core/test/auth/helpers.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, runSql, type TestDatabase } from "./helpers.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

/** A logger that keeps every argument it is given. */
function spyLogger() {
  const calls: { level: string; args: unknown[] }[] = []
  const record =
    (level: string) =>
    (...args: unknown[]) =>
      void calls.push({ level, args })
  return {
    logger: { error: record("error"), warn: record("warn"), debug: record("debug") },
    calls,
    /** Everything a console logger could print: messages, details, stacks, whole cause chains. */
    text: () =>
      calls
        .map((c) => inspect(c.args, { depth: 20, showHidden: true, maxStringLength: null }))
        .join("\n"),
    /** Every AdapterError logged, at the top or anywhere in a cause chain. */
    adapterErrors: () => {
      const found: AdapterError[] = []
      for (const call of calls.filter((c) => c.level === "error")) {
        for (let e = call.args[0]; e instanceof Error; e = e.cause) {
          if (e instanceof AdapterError) found.push(e)
        }
      }
      return found
    },
  }
}

for (const backend of backends) {
  describe(`adapter errors in logs on ${backend.name}`, () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await backend.create()
      await migrate(db.client)
    })
    afterAll(async () => await db.close())

    function config(spy: ReturnType<typeof spyLogger>, generateSessionToken: () => string) {
      return {
        secret: SECRET,
        trustHost: true,
        adapter: PostgresAdapter(db.client, { hashSessionTokens: false }),
        session: { strategy: "database" as const, generateSessionToken },
        logger: spy.logger,
        providers: [
          Credentials({
            credentials: { username: {} },
            authorize: async () => {
              const adapter = PostgresAdapter(db.client)
              const email = `${crypto.randomUUID()}@example.com`
              return await adapter.createUser!({ id: "", email, emailVerified: null })
            },
          }),
        ],
      }
    }

    it("a failing insert (createSession) logs the method and SQL state, never the token", async () => {
      const token = `tok-${crypto.randomUUID()}-insert`
      // A trigger that quotes the value in its message, as constraint errors' details do.
      await runSql(
        db,
        `CREATE OR REPLACE FUNCTION refuse_session() RETURNS trigger AS $$
         BEGIN RAISE EXCEPTION 'refused %', NEW."sessionToken" USING DETAIL = NEW."sessionToken"; END
         $$ LANGUAGE plpgsql;
         CREATE TRIGGER refuse_session BEFORE INSERT ON sessions
           FOR EACH ROW EXECUTE FUNCTION refuse_session();`,
      )
      try {
        const spy = spyLogger()
        const res = await Auth(
          req("/auth/callback/credentials", { form: { username: "a" } }),
          config(spy, () => token),
        )
        expect(res.status).toBe(303)
        const adapterErrors = spy.adapterErrors()
        expect(adapterErrors.map((e) => e.message)).toContain(
          "PostgresAdapter.createSession failed: database error P0001",
        )
        expect(spy.text()).toContain("P0001")
        expect(spy.text()).not.toContain(token)
      } finally {
        await runSql(db, "DROP TRIGGER refuse_session ON sessions")
      }
    })

    it("a failing read (getSessionAndUser) logs the method and SQL state, never the token", async () => {
      const token = `tok-${crypto.randomUUID()}-read`
      await runSql(db, "ALTER TABLE sessions RENAME TO sessions_gone")
      try {
        const spy = spyLogger()
        const res = await Auth(
          req("/auth/session", { headers: { cookie: `authjs.session-token=${token}` } }),
          config(spy, () => token),
        )
        expect(res.status).toBeLessThan(600)
        const adapterErrors = spy.adapterErrors()
        expect(adapterErrors.map((e) => e.message)).toContain(
          "PostgresAdapter.getSessionAndUser failed: database error 42P01",
        )
        expect(spy.text()).not.toContain(token)
      } finally {
        await runSql(db, "ALTER TABLE sessions_gone RENAME TO sessions")
      }
    })
  })
}
