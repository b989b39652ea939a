/**
 * Password accounts on PostgreSQL (PGlite always; the server at DATABASE_URL when set):
 * migration 0007, sign-up → verify → sign-in through `Auth()`, a reset ending every database
 * session of the user, the hash upgraded at sign-in, the cascade on user deletion, and a
 * database without the table refused at start-up.
 */
import { Auth, type AuthConfig, flushDeferred } from "@latchkey/core"
import Password, {
  createPasswordHasher,
  type SendPasswordMailParams,
} from "@latchkey/core/providers/password"
import { MemoryStore } from "@latchkey/core/store"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Jar, req } from "../../core/test/auth/helpers.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"
const GOOD = "tangerine-orbit-cabinet"

for (const backend of backends) {
  for (const strategy of ["database", "jwt"] as const) {
    describe(`password accounts on PostgresAdapter (${backend.name}, ${strategy} sessions)`, () => {
      let db: TestDatabase
      let config: AuthConfig
      const mails: SendPasswordMailParams[] = []

      beforeAll(async () => {
        db = await backend.create()
        const { applied } = await migrate(db.client)
        expect(applied).toContain(7)
        config = {
          secret: SECRET,
          trustHost: true,
          adapter: PostgresAdapter(db.client),
          store: new MemoryStore(),
          session: strategy === "jwt" ? { strategy, revocation: "strict" } : { strategy },
          logger: { error: () => {}, warn: () => {}, debug: () => {} },
          providers: [
            Password({
              hasher: createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 }),
              sendPasswordMail: (p) => void mails.push(p),
            }),
          ],
        }
      })
      afterAll(() => db?.close())

      async function browser() {
        const jar = new Jar()
        const res = await Auth(req("/auth/csrf", { jar }), config)
        jar.take(res)
        const { csrfToken } = (await res.json()) as { csrfToken: string }
        return { jar, csrfToken }
      }
      async function post(
        path: string,
        form: Record<string, string>,
        b?: Awaited<ReturnType<typeof browser>>,
      ) {
        const who = b ?? (await browser())
        const res = await Auth(
          req(path, {
            form: { csrfToken: who.csrfToken, ...form },
            jar: who.jar,
            headers: { accept: "text/html" },
          }),
          config,
        )
        who.jar.take(res)
        // The mails a request leaves for after its answer, sent before the test reads them.
        await flushDeferred()
        return { res, jar: who.jar }
      }
      const link = (m: SendPasswordMailParams) => Object.fromEntries(new URL(m.url!).searchParams)
      async function signedIn(jar: Jar) {
        const res = await Auth(req("/auth/session", { jar }), config)
        return ((await res.json()) as { user?: { email?: string } } | null)?.user?.email
      }

      it("signs up, verifies, signs in; a reset ends every session and signs in the resetting browser", async () => {
        const email = `ann-${strategy}@example.com`
        // Confirmed in the browser that signed up: the one-click confirmation.
        const signingUp = await browser()
        await post("/auth/password/signup", { email, password: GOOD }, signingUp)
        const verify = link(
          mails.findLast((m) => m.purpose === "verify" && m.identifier === email)!,
        )
        expect((await post("/auth/password/verify", verify, signingUp)).res.status).toBe(303)
        const phone = await post("/auth/callback/password", { email, password: GOOD })
        const laptop = await post("/auth/callback/password", { email, password: GOOD })
        expect(await signedIn(phone.jar)).toBe(email)
        const stored = await db.sql("SELECT hash FROM password_hashes")
        expect(
          stored.map((r) => String(r.hash)).every((h) => h.startsWith("$pbkdf2-sha256$")),
        ).toBe(true)

        await post("/auth/password/forgot", { email })
        const reset = link(mails.findLast((m) => m.purpose === "reset" && m.identifier === email)!)
        const [first, second] = await Promise.all([
          post("/auth/password/reset", { ...reset, password: "fresh-new-password" }),
          post("/auth/password/reset", { ...reset, password: "other-new-password" }),
        ])
        const winners = [first, second].filter(
          (r) => !r.res.headers.get("location")!.includes("error="),
        )
        expect(winners).toHaveLength(1)
        expect(await signedIn(winners[0]!.jar)).toBe(email)
        expect(await signedIn(phone.jar)).toBeUndefined()
        expect(await signedIn(laptop.jar)).toBeUndefined()
        if (strategy === "database") {
          const rows = await db.sql(
            `SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s."userId" WHERE u.email = $1`,
            [email],
          )
          expect(rows[0]?.n).toBe(1)
        }
      })

      it("deleting the user deletes the hash", async () => {
        const adapter = config.adapter!
        const user = await adapter.createUser!({
          id: "",
          email: `del-${strategy}@example.com`,
          emailVerified: new Date(),
        })
        await adapter.setPasswordHash!(user.id, "$pbkdf2-sha256$i=1000$c2FsdA$aGFzaA")
        await adapter.deleteUser!(user.id)
        const left = await db.sql(
          `SELECT count(*)::int AS n FROM password_hashes WHERE "userId" = $1`,
          [Number(user.id)],
        )
        expect(left[0]?.n).toBe(0)
      })
    })
  }
}

describe("PostgresAdapter without the password table", () => {
  it("offers no password methods, and a Password provider names them at start-up", async () => {
    const adapter = PostgresAdapter({ query: async () => ({ rows: [] }) } as never, {
      password: false,
    })
    expect(adapter.getPasswordHash).toBeUndefined()
    const errors: Error[] = []
    const res = await Auth(req("/auth/session"), {
      secret: SECRET,
      trustHost: true,
      adapter,
      providers: [Password({ sendPasswordMail: () => {} })],
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    expect(res.status).toBe(500)
    expect(errors.map((e) => e.message).join("\n")).toContain(
      "getPasswordHash, setPasswordHash, deletePasswordHash",
    )
  })
})
