/**
 * Issue 42 item 5 (NIST SP 800-63B §3.1.1.2): passwords are normalised to NFKC, so `ﬁne…` (a
 * ligature) and `fine…`, or full-width and ASCII digits, are one password. Hashes made before,
 * of the NFC form, keep working and are replaced by a hash of the NFKC form at sign-in.
 */
import { describe, expect, it } from "vitest"
import {
  fastHasher,
  GOOD,
  postJson,
  provenAccount,
  sessionCookie,
  setup,
  signIn,
} from "./helpers.js"

const LIGATURE = "\uFB01ne-tangerine-orbit" // "ﬁne-…"
const PLAIN = "fine-tangerine-orbit"

/** Whether signing in with `password` gives a session. */
async function signsIn(app: ReturnType<typeof setup>, email: string, password: string) {
  return sessionCookie((await signIn(app, email, password)).jar) !== undefined
}

describe("NFKC passwords", () => {
  it("sign-up with ﬁ (a ligature), sign in with fi; full-width digits and ASCII ones are one password", async () => {
    const app = setup()
    await provenAccount(app, "ann@example.com", LIGATURE)
    expect(await signsIn(app, "ann@example.com", PLAIN)).toBe(true)
    expect(await signsIn(app, "ann@example.com", LIGATURE)).toBe(true)

    await provenAccount(app, "bob@example.com", "orbit-cabinet-２０２４")
    expect(await signsIn(app, "bob@example.com", "orbit-cabinet-2024")).toBe(true)
  })

  it("a hash made before NFKC (of the NFC form) still signs in, and is replaced by one of the NFKC form", async () => {
    const app = setup()
    await provenAccount(app)
    const user = (await app.adapter.getUserByEmail!("ann@example.com"))!
    // What sign-up stored before this change: the NFC form, ligature kept.
    const legacy = await fastHasher().hash(LIGATURE.normalize("NFC"))
    await app.adapter.setPasswordHash!(user.id, legacy)
    expect(await signsIn(app, "ann@example.com", PLAIN)).toBe(false)

    expect(await signsIn(app, "ann@example.com", LIGATURE)).toBe(true)
    const upgraded = (await app.adapter.getPasswordHash!(user.id))!
    expect(upgraded).not.toBe(legacy)
    expect(await fastHasher().verify(upgraded, PLAIN)).toBe(true)
    expect(await signsIn(app, "ann@example.com", PLAIN)).toBe(true)
  })

  it("the second check costs the same whatever the address: it depends on the characters typed only", async () => {
    const app = setup()
    await provenAccount(app)
    const checks = async (email: string, password: string) => {
      const before = app.counts.verify
      await signIn(app, email, password)
      return app.counts.verify - before
    }
    expect(await checks("ann@example.com", LIGATURE)).toBe(2)
    expect(await checks("nobody@example.com", LIGATURE)).toBe(2)
    expect(await checks("ann@example.com", PLAIN)).toBe(1)
    expect(await checks("nobody@example.com", PLAIN)).toBe(1)
  })

  it("the current password of an account change is checked the same way", async () => {
    const app = setup()
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    const user = (await app.adapter.getUserByEmail!("ann@example.com"))!
    await app.adapter.setPasswordHash!(user.id, await fastHasher().hash(LIGATURE))
    const res = await postJson(
      app,
      "/auth/account/password-change",
      { currentPassword: LIGATURE, password: "brand-new-secret" },
      me,
    )
    expect(res.status).toBe(200)
    expect(await signsIn(app, "ann@example.com", "brand-new-secret")).toBe(true)
  })
})
