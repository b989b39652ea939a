import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { buildCoreRequest } from "../src/internal-request.js"

function actionEvent(headers: Record<string, string>) {
  return {
    url: new URL("http://127.0.0.1:5173/signin/"),
    request: new Request("http://127.0.0.1:5173/signin/?qaction=x", {
      method: "POST",
      headers: { "content-length": "999", accept: "text/html", ...headers },
    }),
    sharedMap: new Map(),
  } as unknown as RequestEventCommon
}

describe("buildCoreRequest", () => {
  it("copies only the headers the core reads, and asks for a JSON redirect", async () => {
    const event = actionEvent({
      cookie: "a=b",
      "user-agent": "ua",
      origin: "http://127.0.0.1:5173",
      "sec-fetch-site": "same-origin",
    })
    const req = buildCoreRequest(event, {
      path: "/auth/callback/credentials",
      body: new URLSearchParams({ callbackUrl: "/", email: "a@b.c" }),
    })
    expect(req.url).toBe("http://127.0.0.1:5173/auth/callback/credentials")
    expect(Object.fromEntries(req.headers)).toEqual({
      cookie: "a=b",
      "user-agent": "ua",
      origin: "http://127.0.0.1:5173",
      "sec-fetch-site": "same-origin",
      "x-auth-return-redirect": "1",
      "content-type": "application/x-www-form-urlencoded",
    })
    await expect(req.text()).resolves.toBe("callbackUrl=%2F&email=a%40b.c")
  })

  it("passes a foreign Origin on unchanged, so the core refuses it too", () => {
    const req = buildCoreRequest(actionEvent({ origin: "https://evil.example" }), {
      path: "/auth/signout",
      body: new URLSearchParams(),
    })
    expect(req.headers.get("origin")).toBe("https://evil.example")
    expect(req.headers.has("sec-fetch-site")).toBe(false)
  })

  it("sends JSON bodies as JSON and keeps the query", async () => {
    const req = buildCoreRequest(actionEvent({}), {
      path: "/auth/signin/github",
      query: "prompt=login",
      body: { data: { nickname: "x" } },
    })
    expect(req.url).toBe("http://127.0.0.1:5173/auth/signin/github?prompt=login")
    expect(req.headers.get("content-type")).toBe("application/json")
    expect(req.headers.get("origin")).toBe("http://127.0.0.1:5173")
    await expect(req.json()).resolves.toEqual({ data: { nickname: "x" } })
  })
})
