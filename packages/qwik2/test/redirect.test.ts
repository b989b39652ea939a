/**
 * How an action of `@latchkey/qwik2` ends (src/redirect.ts). The browser flows are in
 * e2e/qwik2-quickstart.e2e.ts and e2e/qwik2-migrated.e2e.ts; these pin the answers.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { isQDataRequest, navigateOn } from "../src/redirect.js"

/** Production: `navigate()` outside the dev server. */
function navigate(ev: RequestEventCommon, url: string, basePath: string): void {
  navigateOn(ev, url, basePath, false)
}

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

  it("returns without a redirect for Qwik 2's client when the target is the page itself", () => {
    // goto() to the page shown does nothing; the action's `invalidate` re-fetches the session.
    for (const target of ["/account/", "/account/#top", "http://127.0.0.1:5173/account/"]) {
      const ev = event(["@isQAction"], "application/json")
      expect(navigate(ev, target, "/auth")).toBeUndefined()
    }
  })

  it("hands Qwik 2's client another app page as a JSON redirect, followed by client navigation", () => {
    for (const target of ["/dashboard/", "/account/?tab=2", "http://127.0.0.1:5173/"]) {
      const ev = event(["@isQAction"], "application/json")
      expect(thrown(() => navigate(ev, target, "/auth"))).toEqual({
        redirect: {
          status: 303,
          location: new URL(target, page).pathname + new URL(target, page).search,
        },
      })
    }
  })

  it("answers Qwik 2's client with a real 303 for a page under basePath, which is no Qwik route", () => {
    const ev = event(["@isQAction"], "application/json")
    const target = "http://127.0.0.1:5173/auth/signin?error=X"
    const { sent } = thrown(() => navigate(ev, target, "/auth")) as { sent: Response }
    expect(sent.status).toBe(303)
    expect(sent.headers.get("location")).toBe("/auth/signin?error=X")
  })

  it("answers Qwik 2's client on the dev server with a real 303 for every same-origin page", () => {
    // Qwik 2's dev client fetches no loader after an action or a first client navigation.
    for (const target of ["/account/", "/dashboard/"]) {
      const ev = event(["@isQAction"], "application/json")
      const { sent } = thrown(() => navigateOn(ev, target, "/auth", true)) as { sent: Response }
      expect(sent.status).toBe(303)
      expect(sent.headers.get("location")).toBe(target)
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
