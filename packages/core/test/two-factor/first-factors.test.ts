/**
 * The second factor after other first factors: an email link (with `required: true`, a new
 * user is sent to enrollment before any session exists, and `amr` records the link).
 */

import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpCode } from "../../src/features/two-factor/totp.js"
import { Auth } from "../../src/index.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import { decode } from "../../src/kernel/token/jwt.js"
import type { SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import { MemoryStore } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { SECRET } from "../email/helpers.js"

const ORIGIN = "http://localhost:3000"

describe("email link as the first factor", () => {
  it("required and not enrolled: enrollment, then a session with amr email+otp", async () => {
    const sent: SendVerificationRequestParams[] = []
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      store: new MemoryStore(),
      session: { strategy: "jwt" },
      twoFactor: TwoFactor({ issuer: "Test", required: true }),
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
      providers: [
        Nodemailer({
          id: "email",
          sendVerificationRequest: (p) => void sent.push(p),
          rateLimit: { store: new MemoryRateLimitStore() },
        }),
      ],
    }
    const jar = new Map<string, string>()
    const take = (res: Response) => {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(";")
        const i = pair!.indexOf("=")
        const value = pair!.slice(i + 1)
        if (value && !/max-age=0/i.test(line)) jar.set(pair!.slice(0, i), value)
        else jar.delete(pair!.slice(0, i))
      }
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
    }
    const post = (path: string, fields: Record<string, string>) =>
      Auth(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            cookie: take(new Response()),
            "sec-fetch-site": "same-origin",
          },
          body: new URLSearchParams(fields).toString(),
        }),
        config,
      )
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    take(csrf)
    take(
      await post("/auth/signin/email", { email: "ann@example.com", csrfToken, callbackUrl: "/in" }),
    )
    const link = new URL(sent[0]!.url)
    const confirm = await post("/auth/callback/email", {
      token: link.searchParams.get("token")!,
      email: link.searchParams.get("email")!,
      callbackUrl: "/in",
      csrfToken,
    })
    take(confirm)
    expect(new URL(confirm.headers.get("location")!).pathname).toBe("/auth/two-factor")
    expect(jar.has("authjs.session-token")).toBe(false)
    const session = await Auth(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: take(new Response()) } }),
      config,
    )
    expect(await session.json()).toBeNull()

    const page = await Auth(
      new Request(`${ORIGIN}/auth/two-factor`, { headers: { cookie: take(new Response()) } }),
      config,
    )
    take(page)
    const secret = /data-two-factor-secret>([A-Z2-7]+)</.exec(await page.text())![1]!
    const done = await post("/auth/two-factor/confirm", { code: totpCode(secret) })
    take(done)
    expect(done.status).toBe(200)
    const token = await decode({
      token: jar.get("authjs.session-token")!,
      secret: SECRET,
      salt: "authjs.session-token",
    })
    expect(token?.amr).toEqual(["email", "otp", "mfa"])
    expect(token?.email).toBe("ann@example.com")
  })
})
