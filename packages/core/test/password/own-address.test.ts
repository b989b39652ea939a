/**
 * Issue 42 item 6 (ASVS V6.2.11): the account's own address, or the part before the @, is the
 * first guess of anyone who knows the address. Refused wherever a password is chosen: sign-up,
 * reset, set and change, with `PasswordRejected` and `reason: "email"` for the forms.
 */
import { describe, expect, it } from "vitest"
import { checkNewPassword, resolvePolicy } from "../../src/features/password/policy.js"
import {
  browser,
  GOOD,
  linkParams,
  postForm,
  postJson,
  provenAccount,
  req,
  sessionCookie,
  setup,
  signIn,
} from "./helpers.js"

const ADDRESS = "annabel.lee+shop@example.com"
const OWN = [
  ADDRESS,
  "Annabel.Lee+Shop@Example.com",
  "annabel.lee+shop",
  " annabel.lee ",
  "ａｎｎａｂｅｌ.ｌｅｅ",
]

const refusal = { error: "PasswordRejected", reason: "email" }

describe("the account's own address as its password", () => {
  it("the policy refuses the address, its local part (with or without the +tag), however spelt", async () => {
    const policy = resolvePolicy({ refuseCommon: false })
    for (const password of OWN) {
      const error = await checkNewPassword(password, policy, { email: ADDRESS }).catch((e) => e)
      expect(error, password).toMatchObject({
        type: "PasswordRejected",
        details: { reason: "email" },
      })
      expect((error as Error).message).toMatch(/email address/)
    }
    // Another address, or the domain, is not the account's own; without an owner nothing changes.
    for (const password of ["annabel.lee@example.org", "example.com-example.com", "annabel-lee"]) {
      expect(await checkNewPassword(password, policy, { email: ADDRESS })).toBe(password)
    }
    expect(await checkNewPassword(ADDRESS, policy)).toBe(ADDRESS)
  })

  it("sign-up: refused as JSON and, without script, back to the form with the reason shown", async () => {
    const app = setup()
    const b = await browser(app)
    for (const password of [ADDRESS, "annabel.lee"]) {
      const res = await postJson(app, "/auth/password/signup", { email: ADDRESS, password }, b)
      expect(res.status).toBe(400)
      expect(await res.json()).toMatchObject({
        ...refusal,
        message: expect.stringContaining("email address"),
      })
    }
    expect(await app.adapter.getUserByEmail!(ADDRESS)).toBeNull()
    const form = await postForm(
      app,
      "/auth/password/signup",
      { email: ADDRESS, password: "annabel.lee" },
      b,
    )
    const location = form.headers.get("location")!
    expect(location).toContain("error=PasswordRejected&reason=email")
    const page = await (
      await app.auth(req(new URL(location).pathname + new URL(location).search))
    ).text()
    expect(page).toContain("Do not use your email address as your password.")
  })

  it("reset: refused, and the link still works for another password", async () => {
    const app = setup()
    await provenAccount(app, ADDRESS)
    await postForm(app, "/auth/password/forgot", { email: ADDRESS }, await browser(app))
    const link = linkParams(app.mails.findLast((m) => m.purpose === "reset")!)
    const b = await browser(app)
    const own = await postJson(app, "/auth/password/reset", { ...link, password: "annabel.lee" }, b)
    expect(own.status).toBe(400)
    expect(await own.json()).toMatchObject(refusal)
    const ok = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "a-much-better-one" },
      b,
    )
    expect(ok.status).toBe(200)
  })

  it("change and set: refused; the password stays what it was", async () => {
    const app = setup()
    await provenAccount(app, ADDRESS)
    const me = await signIn(app, ADDRESS, GOOD)
    const change = await postJson(
      app,
      "/auth/account/password-change",
      { currentPassword: GOOD, password: ADDRESS },
      me,
    )
    expect(change.status).toBe(400)
    expect(await change.json()).toMatchObject(refusal)
    expect(sessionCookie((await signIn(app, ADDRESS, GOOD)).jar)).toBeDefined()

    const user = (await app.adapter.getUserByEmail!(ADDRESS))!
    await app.adapter.deletePasswordHash!(user.id)
    const set = await postJson(app, "/auth/account/password-set", { password: "annabel.lee" }, me)
    expect(set.status).toBe(400)
    expect(await set.json()).toMatchObject(refusal)
    expect(await app.adapter.getPasswordHash!(user.id)).toBeNull()
  })
})
