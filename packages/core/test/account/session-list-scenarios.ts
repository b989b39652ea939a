/**
 * The per-user session list under concurrency, for any store: sign-ins of one user at the
 * same instant are all listed (one atomic map field each; the old read-modify-write list lost
 * all but one of a burst), re-issues keep the sign-in's user agent, revoked ones drop out.
 */
import { describe, expect, it } from "vitest"
import { Auth, listUserSessions, revokeSession } from "../../src/index.js"
import { storeRevocation } from "../../src/lib/revocation/store-backend.js"
import type { Store } from "../../src/store.js"
import { makeConfig, req, signInWithCredentials } from "../auth/helpers.js"
import { readSession, tokenOf } from "../revocation/helpers.js"

export function sessionListScenarios(o: { name: string; store: () => Store }) {
  describe(`per-user session list: ${o.name}`, () => {
    const config = () =>
      makeConfig({ store: o.store(), session: { strategy: "jwt", revocation: "strict" } })

    it("twenty sessions recorded at the same instant are all listed", async () => {
      const backend = storeRevocation(o.store(), 3600)
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
  })
}
