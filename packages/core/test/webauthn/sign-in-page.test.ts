/** The built-in sign-in page with a passkey provider: one inline script, allowed by its hash. */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { PASSKEY_SCRIPT } from "../../src/features/passkey/script.js"
import { Auth } from "../../src/index.js"
import Passkey from "../../src/providers/passkey.js"
import { credentialsProvider, recordingLogger, req, SECRET } from "../auth/helpers.js"

const config = {
  providers: [credentialsProvider(), Passkey()],
  adapter: MemoryAdapter(),
  session: { strategy: "jwt" as const },
  secret: SECRET,
  trustHost: true,
  experimental: { enableWebAuthn: true },
  logger: recordingLogger().logger,
}

describe("sign-in page with a passkey provider", () => {
  it("allows exactly our script by its SHA-256 hash, and connections to this origin only", async () => {
    const res = await Auth(req("/auth/signin"), config)
    const html = await res.text()
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1])
    expect(scripts).toEqual([PASSKEY_SCRIPT])
    const hash = createHash("sha256").update(PASSKEY_SCRIPT).digest("base64")
    const csp = res.headers.get("content-security-policy")!
    expect(csp).toContain(`script-src 'sha256-${hash}';`)
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).not.toMatch(/unsafe-inline'[^;]*;\s*connect|script-src[^;]*unsafe/)
    expect(html).toContain('data-options="http://app.example.com/auth/webauthn-options/passkey"')
    expect(html).toContain('data-callback="http://app.example.com/auth/callback/passkey"')
  })

  it("the other pages stay script-free under the same config", async () => {
    for (const path of [
      "/auth/signout",
      "/auth/error?error=AccessDenied",
      "/auth/verify-request",
    ]) {
      const res = await Auth(req(path), config)
      expect(await res.text(), path).not.toMatch(/<script/i)
      expect(res.headers.get("content-security-policy"), path).not.toContain("script-src")
    }
  })
})
