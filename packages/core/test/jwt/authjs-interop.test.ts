import { hkdfSync } from "node:crypto"
import { Auth as AuthJs } from "@auth/core"
import { decode as authjsDecode, encode as authjsEncode } from "@auth/core/jwt"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { EncryptJWT } from "jose"
import { describe, expect, it } from "vitest"
import { decode, encode, getToken } from "../../src/kernel/token/jwt.js"
import { SALT, SECRET } from "./helpers.js"

const claims = { sub: "user-1", name: "Ada Lovelace", email: "ada@example.com", role: "admin" }

describe("tokens interchange with @auth/core/jwt", () => {
  it("ours decodes theirs", async () => {
    const token = await authjsEncode({ token: claims, secret: SECRET, salt: SALT })
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(claims)
  })

  it("theirs decodes ours", async () => {
    const token = await encode({ token: claims, secret: SECRET, salt: SALT })
    expect(await authjsDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(claims)
  })

  it("both follow a rotation: old token, new secret first", async () => {
    const rotated = ["brand-new-secret-0123456789abcdef0123", SECRET]
    const theirs = await authjsEncode({ token: claims, secret: SECRET, salt: SALT })
    const ours = await encode({ token: claims, secret: SECRET, salt: SALT })
    expect(await decode({ token: theirs, secret: rotated, salt: SALT })).toMatchObject(claims)
    expect(await authjsDecode({ token: ours, secret: rotated, salt: SALT })).toMatchObject(claims)
    // And a token made after rotation (first secret) reads on both sides.
    const fresh = await encode({ token: claims, secret: rotated, salt: SALT })
    expect(await authjsDecode({ token: fresh, secret: rotated, salt: SALT })).toMatchObject(claims)
  })

  it("both read an A256GCM token made with Auth.js's key derivation", async () => {
    const key = new Uint8Array(
      hkdfSync("sha256", SECRET, SALT, `Auth.js Generated Encryption Key (${SALT})`, 32),
    )
    const { calculateJwkThumbprint, base64url } = await import("jose")
    const kid = await calculateJwkThumbprint({ kty: "oct", k: base64url.encode(key) }, "sha256")
    const token = await new EncryptJWT(claims)
      .setProtectedHeader({ alg: "dir", enc: "A256GCM", kid })
      .setIssuedAt()
      .setExpirationTime("1h")
      .encrypt(key)
    expect(await authjsDecode({ token, secret: SECRET, salt: SALT })).toMatchObject(claims)
    expect(await decode({ token, secret: SECRET, salt: SALT })).toMatchObject(claims)
  })
})

describe("getToken reads what Auth.js's Auth() writes", () => {
  it("reassembles a session cookie Auth.js chunked", async () => {
    const config = {
      secret: SECRET,
      trustHost: true,
      basePath: "/auth",
      providers: [
        AuthJsCredentials({ credentials: {}, authorize: async () => ({ id: "big-user" }) }),
      ],
      callbacks: {
        // A large claim forces Auth.js to split the cookie into chunks.
        jwt: ({ token }: { token: Record<string, unknown> }) => ({
          ...token,
          blob: "z".repeat(6000),
        }),
      },
    }
    const csrfRes = await AuthJs(new Request("http://localhost/auth/csrf"), config)
    const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
    const csrfCookie = csrfRes.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const res = await AuthJs(
      new Request("http://localhost/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
        body: new URLSearchParams({ csrfToken }),
      }),
      config,
    )
    const sessionCookies = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0]!)
      .filter((c) => c.startsWith("authjs.session-token"))
    expect(sessionCookies.length).toBeGreaterThan(1)
    expect(sessionCookies[0]).toMatch(/^authjs\.session-token\.0=/)
    // The browser sends them back in any order.
    const req = new Request("http://localhost/", {
      headers: { cookie: [...sessionCookies].reverse().join("; ") },
    })
    const jwt = await getToken({ req, secret: SECRET })
    expect(jwt?.sub).toBe("big-user")
    expect(jwt?.blob).toHaveLength(6000)
  })
})
