import type { RequestEventCommon } from "@builder.io/qwik-city"
import { InvalidParameter, RefreshTokenError } from "@latchkey/core/errors"
import { encode } from "@latchkey/core/jwt"
import OAuth from "@latchkey/core/providers/oauth"
import { describe, expect, it } from "vitest"
import { getAccessToken } from "../src/access-token.js"
import { CONFIG_KEY } from "../src/shared-map.js"
import type { QwikAuthConfig } from "../src/types.js"

const SECRET = "a-qwik-access-token-secret-of-32-bytes-or-more"
const config: QwikAuthConfig = {
  secret: SECRET,
  trustHost: true,
  // Never contacted: these tests stay on paths that need no provider call.
  providers: [
    OAuth({
      type: "oidc",
      id: "idp",
      issuer: "https://idp.example",
      clientId: "c",
      clientSecret: "s",
      refresh: true,
    }),
  ],
}

async function event(tokens: Record<string, unknown> | null, parked = true) {
  const headers = new Headers()
  if (tokens) {
    const token = await encode({
      token: { sub: "u1", providerTokens: { idp: tokens } },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    headers.set("cookie", `authjs.session-token=${token}`)
  }
  const set: string[] = []
  const sharedMap = new Map<string, unknown>()
  if (parked) sharedMap.set(CONFIG_KEY, Promise.resolve(config))
  const e = {
    request: new Request("http://localhost/api", { headers }),
    sharedMap,
    cookie: { set: (name: string) => set.push(name) },
  } as unknown as RequestEventCommon
  return { e, set }
}

function inAnHour() {
  return Math.floor(Date.now() / 1000) + 3600
}

describe("getAccessToken(event, providerId)", () => {
  it("returns the fresh access token with the config QwikAuth$ parked for the request", async () => {
    const { e, set } = await event({ access_token: "at-1", expires_at: inAnHour() })
    expect(await getAccessToken(e, "idp")).toBe("at-1")
    expect(set).toEqual([])
  })

  it("takes an explicit config, and says what to do without one", async () => {
    const { e } = await event({ access_token: "at-2", expires_at: inAnHour() }, false)
    expect(await getAccessToken(e, "idp", config)).toBe("at-2")
    await expect(getAccessToken(e, "idp")).rejects.toBeInstanceOf(InvalidParameter)
  })

  it("null when nobody is signed in; RefreshTokenError when nothing is left to refresh with", async () => {
    expect(await getAccessToken((await event(null)).e, "idp")).toBeNull()
    const expired = await event({ access_token: "old", expires_at: 1 })
    await expect(getAccessToken(expired.e, "idp")).rejects.toBeInstanceOf(RefreshTokenError)
  })
})
