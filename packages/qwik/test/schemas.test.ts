// Qwik City re-exports this same `z`; importing it directly avoids its virtual route modules.

import { describe, expect, it } from "vitest"
import { z } from "zod"
import { signInSchema, signOutSchema } from "../src/schemas.js"

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
