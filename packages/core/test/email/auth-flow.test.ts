/** The email flow through `Auth()`: sign-in POST → mail → confirm page (GET) → POST → session. */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import type { AuthConfig } from "../../src/types.js"
import { SECRET } from "./helpers.js"

const ORIGIN = "http://localhost:3000"

function setup() {
  const sent: SendVerificationRequestParams[] = []
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    providers: [
      Nodemailer({
        id: "email",
        sendVerificationRequest: (p) => {
          sent.push(p)
        },
        rateLimit: { store: new MemoryRateLimitStore() },
      }),
    ],
  }
  return { sent, adapter, config }
}

function cookieHeader(res: Response, jar: Map<string, string>): string {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(";")
    const i = pair!.indexOf("=")
    jar.set(pair!.slice(0, i), pair!.slice(i + 1))
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
}

describe("email sign-in through Auth()", () => {
  it("signs in after the confirm page, and the link works once", async () => {
    const { sent, adapter, config } = setup()
    const jar = new Map<string, string>()
    const csrfRes = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    let cookies = cookieHeader(csrfRes, jar)

    const form = (fields: Record<string, string>) => ({
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie: cookies,
        origin: ORIGIN,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams(fields).toString(),
    })

    const signIn = await Auth(
      new Request(
        `${ORIGIN}/auth/signin/email`,
        form({ email: "Ann@Example.com", csrfToken, callbackUrl: "/dashboard" }),
      ),
      config,
    )
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get("location")).toBe(
      `${ORIGIN}/auth/verify-request?provider=email&type=email`,
    )
    expect(sent).toHaveLength(1)
    cookies = cookieHeader(signIn, jar)
    const link = sent[0]!.url

    // A mail scanner: GET renders the page, HEAD answers the same without a body; neither
    // consumes the token, as the POST below proves.
    expect((await Auth(new Request(link), config)).status).toBe(200)
    const probe = await Auth(new Request(link, { method: "HEAD" }), config)
    expect(probe.status).toBe(200)
    expect(probe.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await probe.text()).toBe("")
    const page = await Auth(new Request(link, { headers: { cookie: cookies } }), config)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`action="${ORIGIN}/auth/callback/email"`)
    cookies = cookieHeader(page, jar)
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
        m[1]!,
        m[2]!.replace(/&amp;/g, "&"),
      ]),
    )
    expect(Object.keys(fields).sort()).toEqual(["callbackUrl", "csrfToken", "email", "token"])

    const confirm = await Auth(new Request(`${ORIGIN}/auth/callback/email`, form(fields)), config)
    expect(confirm.status).toBe(303)
    expect(confirm.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(confirm.headers.getSetCookie().join("\n")).toContain("authjs.session-token=")
    const user = await adapter.getUserByEmail!("ann@example.com")
    expect(user?.emailVerified).toBeInstanceOf(Date)

    const again = await Auth(new Request(`${ORIGIN}/auth/callback/email`, form(fields)), config)
    expect(again.status).toBe(303)
    expect(again.headers.get("location")).toContain("error=Verification")
  })
})
