/**
 * How an action of `@latchkey/qwik2` ends (src/redirect.ts). The browser flows are in
 * e2e/qwik2-quickstart.e2e.ts and e2e/qwik2-migrated.e2e.ts; these pin the three answers.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { isQDataRequest, navigate } from "../src/redirect.js"

const page = "http://127.0.0.1:5173/account/?qaction=abc"

/** A request event with Qwik 2's flags; `redirect`/`send` return what they were given. */
function event(flags: string[], accept = "text/html") {
  return {
    url: new URL(page),
    request: new Request(page, { method: "POST", headers: { accept } }),
    sharedMap: new Map(flags.map((flag) => [flag, true])),
    redirect: (status: number, location: string) => ({ redirect: { status, location } }),
    send: (response: Response) => ({ sent: response }),
  } as unknown as RequestEventCommon
}

function thrown(run: () => void): unknown {
  try {
    run()
  } catch (value) {
    return value
  }
  throw new Error("navigate() returned instead of throwing")
}

describe("navigate", () => {
  it("answers a form posted without JavaScript with a plain 303", () => {
    expect(thrown(() => navigate(event(["@isQAction"]), "/account/", "/auth"))).toEqual({
      redirect: { status: 303, location: "/account/" },
    })
  })

  it("answers Qwik 2's client with a real 303 for a same-origin page, so the page is loaded anew", () => {
    // Qwik 2 would follow a `{ redirect }` with goto(), which re-runs no loader on this path.
    for (const target of ["/account/", "http://127.0.0.1:5173/auth/signin?error=X"]) {
      const ev = event(["@isQAction"], "application/json")
      const { sent } = thrown(() => navigate(ev, target, "/auth")) as { sent: Response }
      expect(sent.status).toBe(303)
      expect(sent.headers.get("location")).toBe(
        new URL(target, page).pathname + new URL(target, page).search,
      )
    }
  })

  it("keeps Qwik 2's JSON redirect for another origin, which fetch() cannot follow", () => {
    const ev = event(["@isQAction"], "application/json")
    const target = "https://idp.example/authorize?client_id=x"
    expect(thrown(() => navigate(ev, target, "/auth"))).toEqual({
      redirect: { status: 303, location: target },
    })
  })
})

describe("isQDataRequest", () => {
  it("is Qwik 2's per-loader JSON request, not a page or an action", () => {
    expect(isQDataRequest(event(["@isQLoader"]))).toBe(true)
    expect(isQDataRequest(event(["@isQAction"], "application/json"))).toBe(false)
    expect(isQDataRequest(event([]))).toBe(false)
  })
})
