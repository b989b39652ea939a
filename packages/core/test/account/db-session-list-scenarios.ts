/**
 * Database sessions of one user under repeated sign-in, for any Latchkey adapter: a script
 * with one valid password signs in again and again, and the user's rows stay within
 * `session.maxListedSessions` (bounded as each row is written, not only when listed). The
 * account page lists the newest, each can be ended, and "end all other sessions" still works.
 * Run with the memory adapter here and with PostgreSQL (PGlite, and the server at
 * DATABASE_URL) in packages/adapter-postgres/test.
 */
import { describe, expect, it } from "vitest"
import { Account } from "../../src/account.js"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import Credentials from "../../src/providers/credentials.js"
import { Jar, makeConfig, req, signInWithCredentials } from "../auth/helpers.js"

interface Listed {
  id: string
  current: boolean
}

export function databaseSessionListScenarios(o: {
  name: string
  /** A fresh adapter with the account API. */
  adapter: () => Promise<Adapter>
  /** How many times the user signs in (fewer on a database server, to keep CI short). */
  signIns: number
  /** The user's rows as stored, expired ones included (default: the adapter's listing). */
  countRows?: (userId: string) => Promise<number>
}) {
  describe(`database sessions of one user: ${o.name}`, () => {
    async function setup(maxListedSessions?: number) {
      const adapter = await o.adapter()
      const user = await adapter.createUser!({
        id: crypto.randomUUID(),
        email: `repeat-${crypto.randomUUID()}@example.com`,
        emailVerified: null,
        name: "Repeat",
      })
      const cfg = makeConfig({
        adapter,
        providers: [
          Credentials({
            credentials: { username: {}, password: { type: "password" } },
            authorize: async (c) => (c.password === "right" ? user : null),
          }),
        ],
        session: {
          strategy: "database",
          ...(maxListedSessions === undefined ? {} : { maxListedSessions }),
        },
        account: Account(),
      })
      const signIn = async () => {
        const { res, jar } = await signInWithCredentials(Auth, cfg, new Jar(), {
          username: "r",
          password: "right",
        })
        expect(res.status).toBe(303)
        return jar
      }
      const rows =
        o.countRows ?? (async (id: string) => (await adapter.listSessionsByUserId!(id)).length)
      const account = async (jar: Jar) => {
        const res = await Auth(req("/auth/account", { jar }), cfg)
        expect(res.status).toBe(200)
        return ((await res.json()) as { sessions: Listed[] }).sessions
      }
      const op = async (jar: Jar, name: string, json: Record<string, unknown> = {}) =>
        (await Auth(req(`/auth/account/${name}`, { json, jar }), cfg)).status
      const signedIn = async (jar: Jar) => {
        const res = await Auth(req("/auth/session", { jar }), cfg)
        return ((await res.json()) as { user?: unknown } | null)?.user !== undefined
      }
      const currentId = async (jar: Jar) => (await account(jar)).find((s) => s.current)!.id
      return { user, signIn, rows, account, op, signedIn, currentId }
    }

    it(`one user signed in ${o.signIns.toLocaleString("en")} times: never more than 50 rows; the account page lists the newest, each revocable; "end all other sessions" works`, async () => {
      const limit = 50
      const { user, signIn, rows, account, op, signedIn, currentId } = await setup()
      const first = await signIn()
      // The browsers of the newest sign-ins, to match them with what the account page lists.
      const recent: Jar[] = [first]
      const batchMs: number[] = []
      let batch = 0
      let started = performance.now()
      for (let i = 1; i < o.signIns; i++) {
        recent.push(await signIn())
        if (recent.length > limit) recent.shift()
        if ((i + 1) % 100 === 0) {
          batch += performance.now() - started
          // Bounded when written, not only when listed.
          expect(await rows(user.id)).toBeLessThanOrEqual(limit)
          if ((i + 1) % 1_000 === 0) {
            batchMs.push(batch)
            batch = 0
          }
          started = performance.now()
        }
      }
      // Measured, not asserted (timing thresholds do not belong in unit tests).
      console.info(
        `database sessions (${o.name}): first 1,000 sign-ins ${batchMs[0]!.toFixed(0)} ms, last 1,000 ${batchMs.at(-1)!.toFixed(0)} ms`,
      )
      expect(await rows(user.id)).toBe(limit)
      const newest = recent.at(-1)!
      const listed = await account(newest)
      expect(listed).toHaveLength(limit)
      // What is listed is exactly the newest sign-ins.
      const recentIds = await Promise.all(recent.map(currentId))
      expect(listed.map((s) => s.id).sort()).toEqual([...recentIds].sort())
      expect(listed.find((s) => s.current)?.id).toBe(recentIds.at(-1))
      // The first sign-in fell off long ago: its row went with it, so it is signed out.
      expect(await signedIn(first)).toBe(false)
      // Each listed session can be ended from the account page.
      const victim = recent[0]!
      expect(await op(newest, "session-revoke", { id: recentIds[0] })).toBe(200)
      expect(await signedIn(victim)).toBe(false)
      expect((await account(newest)).map((s) => s.id)).not.toContain(recentIds[0])
      // "End all other sessions": only this browser is left.
      expect(await op(newest, "sessions-revoke-others")).toBe(200)
      for (const jar of recent.slice(1, -1)) expect(await signedIn(jar)).toBe(false)
      expect(await signedIn(newest)).toBe(true)
      expect((await account(newest)).map((s) => s.id)).toEqual([recentIds.at(-1)])
      expect(await rows(user.id)).toBe(1)
    }, 600_000)

    it("session.maxListedSessions sets the bound; the oldest sign-ins are signed out", async () => {
      const { user, signIn, rows, account, signedIn, currentId } = await setup(3)
      const jars: Jar[] = []
      for (let i = 0; i < 8; i++) {
        jars.push(await signIn())
        expect(await rows(user.id)).toBeLessThanOrEqual(3)
      }
      const kept = await Promise.all(jars.slice(-3).map(currentId))
      expect((await account(jars.at(-1)!)).map((s) => s.id)).toEqual(kept)
      for (const jar of jars.slice(0, 5)) expect(await signedIn(jar)).toBe(false)
      for (const jar of jars.slice(-3)) expect(await signedIn(jar)).toBe(true)
    })
  })
}
