/**
 * The per-user session list under concurrency, for any store: sign-ins of one user at the
 * same instant are all listed (one atomic map field each; the old read-modify-write list lost
 * all but one of a burst), re-issues keep the sign-in's user agent, revoked ones drop out.
 */
import { describe, expect, it } from "vitest"
import { Auth, listUserSessions, revokeSession, revokeUserSessions } from "../../src/index.js"
import { storeRevocation } from "../../src/kernel/revocation/store-backend.js"
import Credentials from "../../src/providers/credentials.js"
import type { Store } from "../../src/store.js"
import { Jar, makeConfig, req, signInWithCredentials } from "../auth/helpers.js"
import { readSession, tokenOf } from "../revocation/helpers.js"

/** A provider that signs in one user of the test's own (a shared server holds other tests' lists). */
function oneUser(id: string) {
  return Credentials({
    credentials: { username: {}, password: { type: "password" } },
    authorize: async (c) => (c.password === "right" ? { id, name: "Repeat", email: null } : null),
  })
}

export function sessionListScenarios(o: { name: string; store: () => Store }) {
  describe(`per-user session list: ${o.name}`, () => {
    const config = () =>
      makeConfig({ store: o.store(), session: { strategy: "jwt", revocation: "strict" } })

    it("twenty sessions recorded at the same instant are all listed", async () => {
      const backend = storeRevocation(o.store(), { lifetimeSeconds: 3600 })
      const userId = `user-${crypto.randomUUID()}`
      const now = Math.floor(Date.now() / 1000)
      const sids = Array.from({ length: 20 }, () => crypto.randomUUID())
      await Promise.all(
        sids.map((sid) =>
          backend.recordSession({ sid, userId, authTime: now, expires: now + 600 }),
        ),
      )
      expect((await backend.listSessions(userId)).map((r) => r.sid).sort()).toEqual(sids.sort())
    })

    it("two sign-ins at once are both listed; a burst of ten too", async () => {
      const cfg = config()
      const [a, b] = await Promise.all([
        signInWithCredentials(Auth, cfg),
        signInWithCredentials(Auth, cfg),
      ])
      const sids = [(await tokenOf(a.jar)).sid, (await tokenOf(b.jar)).sid]
      expect((await listUserSessions(cfg, "user-alice")).map((s) => s.sid).sort()).toEqual(
        sids.sort(),
      )
      await Promise.all(Array.from({ length: 10 }, () => signInWithCredentials(Auth, cfg)))
      expect(await listUserSessions(cfg, "user-alice")).toHaveLength(12)
    })

    it("a re-issue keeps the user agent and moves lastSeen; a revoked session drops out", async () => {
      const cfg = makeConfig({
        store: o.store(),
        session: { strategy: "jwt", revocation: "strict", updateAge: 0 },
      })
      const ua =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15"
      const { jar } = await signInWithCredentials(Auth, cfg)
      const res = await Auth(
        req("/auth/callback/credentials", {
          form: { username: "alice", password: "wonderland" },
          headers: { "user-agent": ua },
        }),
        cfg,
      )
      expect(res.status).toBe(303)
      const { sid } = await tokenOf(jar)
      expect(await readSession(cfg, jar)).not.toBeNull()
      const listed = await listUserSessions(cfg, "user-alice")
      expect(listed).toHaveLength(2)
      const safari = listed.find((s) => s.userAgent === "Safari on macOS")
      expect(safari).toBeDefined()
      const mine = listed.find((s) => s.sid === sid)!
      expect(mine.lastSeen).toBeTypeOf("number")
      await revokeSession(cfg, safari!.sid)
      expect((await listUserSessions(cfg, "user-alice")).map((s) => s.sid)).toEqual([mine.sid])
    })

    it("one user signed in 10,000 times: the store keeps the newest 50, each revocable; sign-out everywhere ends the rest", async () => {
      const store = o.store()
      const userId = `repeat-${crypto.randomUUID()}`
      const cfg = makeConfig({
        store,
        providers: [oneUser(userId)],
        session: { strategy: "jwt", revocation: "strict" },
      })
      const signIn = async () =>
        (await signInWithCredentials(Auth, cfg, new Jar(), { username: "r", password: "right" }))
          .jar
      const first = await signIn()
      const batchMs: number[] = []
      let last = first
      for (let batch = 0; batch < 10; batch++) {
        const started = performance.now()
        for (let i = batch === 0 ? 1 : 0; i < 1_000; i++) last = await signIn()
        batchMs.push(performance.now() - started)
        // Bounded when written, not only when listed.
        const fields = Object.keys((await store.mapGetAll?.(`sessions:${userId}`)) ?? {})
        expect(fields.length).toBeLessThanOrEqual(50)
      }
      // Measured, not asserted (timing thresholds do not belong in unit tests).
      console.info(
        `session list (${o.name}): first 1,000 sign-ins ${batchMs[0]!.toFixed(0)} ms, last 1,000 ${batchMs[9]!.toFixed(0)} ms`,
      )
      const listed = await listUserSessions(cfg, userId)
      expect(listed).toHaveLength(50)
      const newest = (await tokenOf(last)).sid
      expect(listed.map((s) => s.sid)).toContain(newest)
      // Each listed session can be ended.
      const victim = listed.find((s) => s.sid !== newest)!
      await revokeSession(cfg, victim.sid)
      expect((await listUserSessions(cfg, userId)).map((s) => s.sid)).not.toContain(victim.sid)
      // The first sign-in fell off the list long ago: it still works, and "everywhere" ends it.
      expect(listed.map((s) => s.sid)).not.toContain((await tokenOf(first)).sid)
      expect(await readSession(cfg, first)).not.toBeNull()
      await revokeUserSessions(cfg, userId)
      expect(await readSession(cfg, first)).toBeNull()
      expect(await readSession(cfg, last)).toBeNull()
    }, 240_000)

    it("session.maxListedSessions sets the bound", async () => {
      const store = o.store()
      const userId = `repeat-${crypto.randomUUID()}`
      const cfg = makeConfig({
        store,
        providers: [oneUser(userId)],
        session: { strategy: "jwt", revocation: "strict", maxListedSessions: 3 },
      })
      const sids: string[] = []
      for (let i = 0; i < 8; i++) {
        const { jar } = await signInWithCredentials(Auth, cfg, new Jar(), {
          username: "r",
          password: "right",
        })
        sids.push(String((await tokenOf(jar)).sid))
        // Sign-ins a few milliseconds apart: within one second, the earliest still go first.
        await new Promise((r) => setTimeout(r, 3))
      }
      const fields = Object.keys((await store.mapGetAll?.(`sessions:${userId}`)) ?? {})
      expect(fields.sort()).toEqual(sids.slice(-3).sort())
      expect((await listUserSessions(cfg, userId)).map((s) => s.sid).sort()).toEqual(
        sids.slice(-3).sort(),
      )
    })
  })
}
