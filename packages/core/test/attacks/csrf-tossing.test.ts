/**
 * Issue 23 item 4, written as the attacks: a sibling subdomain (or anything that can set
 * cookies for the app, e.g. over plain http) plants its own double-submit pair and posts from a
 * same-site origin. The Origin must be the app's own, and a pair must belong to the session.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { alice, Jar, makeConfig, ORIGIN, req } from "../auth/helpers.js"

const SIBLING = "http://evil.app.example.com"
const creds = { username: "alice", password: "wonderland" }

/** A pair the attacker minted in their own browser (signed out, or signed in as themselves). */
async function attackerPair(config: ReturnType<typeof makeConfig>, signedIn = false) {
  const jar = new Jar()
  if (signedIn)
    jar.take(await Auth(req("/auth/callback/credentials", { form: creds, jar }), config))
  const res = await Auth(req("/auth/csrf", { jar }), config)
  jar.take(res)
  const { csrfToken } = (await res.json()) as { csrfToken: string }
  return { cookie: jar.get("authjs.csrf-token")!, csrfToken }
}

async function signedInVictim(config: ReturnType<typeof makeConfig>) {
  const jar = new Jar()
  jar.take(await Auth(req("/auth/callback/credentials", { form: creds, jar }), config))
  expect(jar.get("authjs.session-token")).toBeDefined()
  return jar
}

async function sessionOf(config: ReturnType<typeof makeConfig>, jar: Jar) {
  return (await (await Auth(req("/auth/session", { jar }), config)).json()) as {
    user?: { name?: string }
  } | null
}

describe.each(["jwt", "database"] as const)("CSRF by cookie tossing (%s sessions)", (strategy) => {
  /** The app; with database sessions alice is a stored user, as `authorize` must return one. */
  function makeApp() {
    if (strategy === "jwt") return makeConfig()
    const adapter = MemoryAdapter()
    void adapter.createUser!({ ...alice, emailVerified: null })
    return makeConfig({ adapter, session: { strategy: "database" } })
  }

  it("attack: login CSRF from a sibling subdomain (Sec-Fetch-Site: same-site, its Origin, a planted pair) → 403, no session", async () => {
    const config = makeApp()
    const pair = await attackerPair(config)
    const victim = new Jar()
    victim.cookies.set("authjs.csrf-token", pair.cookie)
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { ...creds, csrfToken: pair.csrfToken },
        jar: victim,
        headers: { origin: SIBLING, "sec-fetch-site": "same-site" },
      }),
      config,
    )
    expect(res.status).toBe(403)
    expect(res.headers.getSetCookie().join()).not.toContain("authjs.session-token=")
  })

  it("attack: a same-site POST without Origin (Sec-Fetch-Site: same-site) → 403", async () => {
    const config = makeApp()
    const victim = await signedInVictim(config)
    const res = await Auth(
      req("/auth/signout", { form: {}, jar: victim, headers: { "sec-fetch-site": "same-site" } }),
      config,
    )
    expect(res.status).toBe(403)
    expect((await sessionOf(config, victim))?.user?.name).toBe("Alice")
  })

  it("attack: Origin: null from a sandboxed frame (Sec-Fetch-Site: cross-site), or with no other signal and no token → 403", async () => {
    const config = makeApp()
    const victim = await signedInVictim(config)
    const attempts: Record<string, string>[] = [
      { origin: "null", "sec-fetch-site": "cross-site" },
      { origin: "null", "x-no-fetch-metadata": "1" },
    ]
    for (const headers of attempts) {
      const res = await Auth(req("/auth/signout", { form: {}, jar: victim, headers }), config)
      expect(res.status).toBe(403)
    }
    expect((await sessionOf(config, victim))?.user?.name).toBe("Alice")
  })

  it("owner: Origin: null with Sec-Fetch-Site: same-origin (a no-referrer page, like the email confirm page) passes", async () => {
    const config = makeApp()
    const victim = await signedInVictim(config)
    const res = await Auth(
      req("/auth/signout", {
        form: {},
        jar: victim,
        headers: { origin: "null", "sec-fetch-site": "same-origin" },
      }),
      config,
    )
    expect(res.status).toBe(303)
  })

  it.each([false, true])(
    "attack: forced sign-out and session update with a planted pair (attacker signed in: %s), no Origin → 403, session intact",
    async (attackerSignedIn) => {
      const config = makeApp()
      const pair = await attackerPair(config, attackerSignedIn)
      const victim = await signedInVictim(config)
      victim.cookies.set("authjs.csrf-token", pair.cookie)
      const plain = { "x-no-fetch-metadata": "1" }
      const signOut = await Auth(
        req("/auth/signout", { form: { csrfToken: pair.csrfToken }, jar: victim, headers: plain }),
        config,
      )
      expect(signOut.status).toBe(403)
      const update = await Auth(
        req("/auth/session", {
          json: { csrfToken: pair.csrfToken, data: { name: "Mallory" } },
          jar: victim,
          headers: plain,
        }),
        config,
      )
      expect(update.status).toBe(403)
      expect((await sessionOf(config, victim))?.user?.name).toBe("Alice")
    },
  )

  it("owner: the victim's own pair, minted in their session, still works without Origin", async () => {
    const config = makeApp()
    const victim = await signedInVictim(config)
    const minted = await Auth(req("/auth/csrf", { jar: victim }), config)
    victim.take(minted)
    const { csrfToken } = (await minted.json()) as { csrfToken: string }
    const res = await Auth(
      req("/auth/signout", {
        form: { csrfToken },
        jar: victim,
        headers: { "x-no-fetch-metadata": "1" },
      }),
      config,
    )
    expect(res.status).toBe(303)
    expect(res.headers.getSetCookie().join()).toContain("authjs.session-token=;")
  })

  it("owner: a same-origin POST (Origin of the app) needs no token", async () => {
    const config = makeApp()
    const victim = await signedInVictim(config)
    const res = await Auth(
      req("/auth/signout", { form: {}, jar: victim, headers: { origin: ORIGIN } }),
      config,
    )
    expect(res.status).toBe(303)
  })
})
