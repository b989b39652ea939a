import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import { authJsSchema, backends, runSql, type TestDatabase } from "./helpers.js"

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")
const token = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url")

for (const backend of backends) {
  describe(`session tokens at rest on ${backend.name}`, () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await backend.create()
      await migrate(db.client)
    })
    afterAll(async () => await db.close())

    const newUser = async (adapter: ReturnType<typeof PostgresAdapter>) =>
      await adapter.createUser!({
        id: "",
        email: `${crypto.randomUUID()}@example.com`,
        emailVerified: null,
      })
    const storedRow = async (userId: string) =>
      await db.sql(`SELECT * FROM sessions WHERE "userId" = $1`, [Number(userId)])

    it("are stored as their SHA-256 (hex) by default, never in plain text", async () => {
      const adapter = PostgresAdapter(db.client)
      const user = await newUser(adapter)
      const sessionToken = token()
      const expires = new Date(Date.now() + 60_000)
      expect(
        await adapter.createSession!({ sessionToken, userId: user.id, expires }),
      ).toMatchObject({
        sessionToken,
        userId: user.id,
        expires,
      })

      const rows = await storedRow(user.id)
      expect(rows).toHaveLength(1)
      expect(rows[0]?.sessionToken).toBe(sha256(sessionToken))
      expect(JSON.stringify(rows)).not.toContain(sessionToken)
      // Nor anywhere else in the database.
      const dump = await db.sql(
        `SELECT string_agg(t::text, ' ') AS all FROM (
           SELECT s::text AS t FROM sessions s UNION ALL SELECT u::text FROM users u
           UNION ALL SELECT a::text FROM accounts a) x`,
      )
      expect(String(dump[0]?.all)).not.toContain(sessionToken)
    })

    it("are hashed transparently in every session method", async () => {
      const adapter = PostgresAdapter(db.client)
      const user = await newUser(adapter)
      const sessionToken = token()
      const expires = new Date(Date.now() + 60_000)
      await adapter.createSession!({ sessionToken, userId: user.id, expires })
      expect((await adapter.getSessionAndUser!(sessionToken))?.session.sessionToken).toBe(
        sessionToken,
      )
      const later = new Date(expires.getTime() + 1000)
      expect(await adapter.updateSession!({ sessionToken, expires: later })).toMatchObject({
        sessionToken,
        userId: user.id,
        expires: later,
      })
      expect(await adapter.deleteSession!(sessionToken)).toEqual({
        sessionToken,
        userId: user.id,
        expires: later,
      })
      expect(await storedRow(user.id)).toEqual([])
    })

    it("the stored hash is not a session token: presenting it finds nothing", async () => {
      const adapter = PostgresAdapter(db.client)
      const user = await newUser(adapter)
      const sessionToken = token()
      await adapter.createSession!({
        sessionToken,
        userId: user.id,
        expires: new Date(Date.now() + 60_000),
      })
      const [row] = await storedRow(user.id)
      expect(await adapter.getSessionAndUser!(String(row?.sessionToken))).toBeNull()
    })

    it("with hashSessionTokens: false are stored as given (Auth.js databases)", async () => {
      const adapter = PostgresAdapter(db.client, { hashSessionTokens: false })
      const user = await newUser(adapter)
      const sessionToken = token()
      await adapter.createSession!({
        sessionToken,
        userId: user.id,
        expires: new Date(Date.now() + 60_000),
      })
      expect((await storedRow(user.id))[0]?.sessionToken).toBe(sessionToken)
      // A hashing adapter on the same rows finds none of them: switching signs people out.
      expect(await PostgresAdapter(db.client).getSessionAndUser!(sessionToken)).toBeNull()
    })
  })

  describe(`an existing Auth.js database on ${backend.name}`, () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await backend.create()
      // Created by Auth.js's SQL, rows written the way @auth/pg-adapter writes them.
      await runSql(db, authJsSchema)
      await db.sql(
        `INSERT INTO users (name, email, "emailVerified", image)
         VALUES ('Ada', 'ada@example.com', '2024-01-02T03:04:05.678Z', 'https://example.com/a.png')`,
      )
      await db.sql(
        `INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token,
           expires_at, token_type, scope)
         VALUES (1, 'oauth', 'github', '4242', 'gho_abc', 1900000000, 'bearer', 'read:user')`,
      )
      await db.sql(
        `INSERT INTO sessions ("userId", expires, "sessionToken")
         VALUES (1, '2099-01-01T00:00:00.000Z', '8b8a2d7e-1d6c-4d2c-9b52-7f4b6c1f0a11')`,
      )
    })
    afterAll(async () => await db.close())

    const ada = {
      id: "1",
      name: "Ada",
      email: "ada@example.com",
      emailVerified: new Date("2024-01-02T03:04:05.678Z"),
      image: "https://example.com/a.png",
    }

    it("finds its plaintext sessions with hashSessionTokens: false", async () => {
      const adapter = PostgresAdapter(db.client, { hashSessionTokens: false, account: false })
      expect(await adapter.getSessionAndUser!("8b8a2d7e-1d6c-4d2c-9b52-7f4b6c1f0a11")).toEqual({
        session: {
          sessionToken: "8b8a2d7e-1d6c-4d2c-9b52-7f4b6c1f0a11",
          userId: "1",
          expires: new Date("2099-01-01T00:00:00.000Z"),
        },
        user: ada,
      })
    })

    it("reads its users and accounts", async () => {
      const adapter = PostgresAdapter(db.client, { hashSessionTokens: false, account: false })
      expect(await adapter.getUserByEmail!("ada@example.com")).toEqual(ada)
      expect(
        await adapter.getUserByAccount!({ provider: "github", providerAccountId: "4242" }),
      ).toEqual(ada)
      expect(await adapter.getAccount!("4242", "github")).toEqual({
        userId: "1",
        type: "oauth",
        provider: "github",
        providerAccountId: "4242",
        access_token: "gho_abc",
        expires_at: 1_900_000_000,
        token_type: "bearer",
        scope: "read:user",
      })
    })

    it("writes rows Auth.js reads back with its own queries", async () => {
      const adapter = PostgresAdapter(db.client, { hashSessionTokens: false, account: false })
      const sessionToken = crypto.randomUUID()
      await adapter.createSession!({
        sessionToken,
        userId: "1",
        expires: new Date(Date.now() + 1000),
      })
      // @auth/pg-adapter's getSessionAndUser: `select * from sessions where "sessionToken" = $1`
      const rows = await db.sql(`select * from sessions where "sessionToken" = $1`, [sessionToken])
      expect(rows).toHaveLength(1)
      expect(rows[0]?.userId).toBe(1)
    })

    it("without the authenticators table, authenticators: false leaves the WebAuthn methods out", () => {
      const adapter = PostgresAdapter(db.client, {
        hashSessionTokens: false,
        authenticators: false,
      })
      expect("createAuthenticator" in adapter).toBe(false)
      expect("getSessionAndUser" in adapter).toBe(true)
    })
  })
}
