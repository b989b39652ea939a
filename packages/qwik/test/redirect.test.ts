import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { currentPage, toLocation } from "../src/redirect.js"

describe("toLocation", () => {
  const origin = "http://127.0.0.1:5173"
  it("turns same-origin URLs into paths (Qwik only client-navigates to paths)", () => {
    expect(toLocation("http://127.0.0.1:5173/protected/?a=1#x", origin)).toBe("/protected/?a=1#x")
    expect(toLocation("/profile/", origin)).toBe("/profile/")
  })
  it("leaves other origins absolute", () => {
    expect(toLocation("https://github.com/login/oauth/authorize?x=1", origin)).toBe(
      "https://github.com/login/oauth/authorize?x=1",
    )
  })
})

describe("currentPage", () => {
  it("strips Qwik's action and q-data plumbing", () => {
    const event = {
      url: new URL("http://h/profile/q-data.json?qaction=abc&tab=2"),
    } as RequestEventCommon
    expect(currentPage(event)).toBe("/profile/?tab=2")
  })
})
