// Qwik City re-exports this same `z`; importing it directly avoids its virtual route modules.

import { describe, expect, it } from "vitest"
import { z } from "zod"
import {
  noInputSchema,
  passkeyIdSchema,
  renamePasskeySchema,
  signInSchema,
  signOutSchema,
  unlinkAccountSchema,
} from "../src/schemas.js"

const signIn = z.object(signInSchema(z))

describe("sign-in input", () => {
  it("accepts credentials as options and authorizationParams in every documented form", () => {
    const ok = signIn.parse({
      providerId: "my-password-login",
      options: { redirectTo: "/x", email: "a@b.c", password: "pw", remember: true },
      authorizationParams: { prompt: "login" },
    })
    expect(ok.options).toEqual({ redirectTo: "/x", email: "a@b.c", password: "pw", remember: true })
    expect(ok.authorizationParams?.toString()).toBe("prompt=login")
    expect(
      signIn
        .parse({ authorizationParams: "login_hint=a%40b.c" })
        .authorizationParams?.get("login_hint"),
    ).toBe("a@b.c")
    expect(
      signIn
        .parse({ authorizationParams: new URLSearchParams("scope=openid") })
        .authorizationParams?.get("scope"),
    ).toBe("openid")
  })

  it.each(["client_id", "redirect_uri", "response_type", "state", "nonce", "code_challenge"])(
    "refuses authorizationParams overriding %s",
    (key) => {
      const result = signIn.safeParse({ authorizationParams: { [key]: "x" } })
      expect(result.success).toBe(false)
      expect(result.error?.issues[0]?.path).toEqual(["authorizationParams"])
    },
  )

  it("refuses nested objects as credentials and odd provider ids", () => {
    expect(signIn.safeParse({ options: { email: { $ne: 1 } } }).success).toBe(false)
    expect(signIn.safeParse({ providerId: "../signout" }).success).toBe(false)
  })

  it("sign-out takes only a redirect target", () => {
    expect(z.object(signOutSchema(z)).safeParse({ redirectTo: "" }).success).toBe(false)
    expect(z.object(signOutSchema(z)).parse({ redirectTo: "/" })).toEqual({ redirectTo: "/" })
  })
})

describe("account action input", () => {
  const rename = z.object(renamePasskeySchema(z))
  const unlink = z.object(unlinkAccountSchema(z))

  it("a passkey name is trimmed, 1 to 64 characters", () => {
    expect(rename.parse({ id: "cred", name: "  Work laptop " }).name).toBe("Work laptop")
    expect(rename.safeParse({ id: "cred", name: "   " }).success).toBe(false)
    expect(rename.safeParse({ id: "cred", name: "x".repeat(65) }).success).toBe(false)
    expect(rename.safeParse({ name: "no id" }).success).toBe(false)
  })

  it("ids are bounded strings; the core decides whose they are", () => {
    const id = z.object(passkeyIdSchema(z))
    expect(id.safeParse({ id: "" }).success).toBe(false)
    expect(id.safeParse({ id: "a".repeat(513) }).success).toBe(false)
    expect(id.safeParse({ id: ["a", "b"] }).success).toBe(false)
    expect(z.object(noInputSchema(z)).parse({ extra: "ignored" })).toEqual({})
  })

  it("unlink names a provider id and the account at it", () => {
    const ok = { provider: "local-oidc", providerAccountId: "sub-1" }
    expect(unlink.parse(ok)).toEqual(ok)
    expect(unlink.safeParse({ ...ok, provider: "../x y" }).success).toBe(false)
    expect(unlink.safeParse({ provider: "github" }).success).toBe(false)
  })
})
