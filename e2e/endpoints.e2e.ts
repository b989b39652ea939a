/**
 * The HTTP endpoints under `/auth` as served through the Qwik plugin: JSON answers, and CSRF
 * protection staying on for them.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest"
import { launch, open, sessionCookie, signIn } from "./browser.js"

const baseURL = inject("baseURL")
let browser: Browser
let cookieHeader = ""

beforeAll(async () => {
  browser = await launch()
  const { context, page } = await open(browser, baseURL)
  await signIn(page)
  const cookie = await sessionCookie(context)
  cookieHeader = `${cookie?.name}=${cookie?.value}`
  await context.close()
})
afterAll(async () => {
  await browser?.close()
})

async function session(cookie?: string): Promise<unknown> {
  const res = await fetch(`${baseURL}/auth/session`, { headers: cookie ? { cookie } : {} })
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toMatch(/^application\/json/)
  return res.json()
}

describe("/auth endpoints", () => {
  it("GET /auth/session answers null without a session and the session with one", async () => {
    await expect(session()).resolves.toBeNull()
    await expect(session(cookieHeader)).resolves.toMatchObject({
      user: { email: "demo@example.com", name: "Demo User" },
      expires: expect.any(String),
    })
  })

  it.each(["/auth/session", "/auth/providers", "/auth/signin", "/auth/error"])(
    "HEAD %s answers as GET does, without a body",
    async (path) => {
      const get = await fetch(`${baseURL}${path}`, { redirect: "manual" })
      const head = await fetch(`${baseURL}${path}`, { method: "HEAD", redirect: "manual" })
      expect(head.status).toBe(get.status)
      expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"))
      expect(head.headers.get("location")).toBe(get.headers.get("location"))
      expect(await head.text()).toBe("")
    },
  )

  it("GET /auth/csrf answers a token and sets the CSRF cookie once", async () => {
    const res = await fetch(`${baseURL}/auth/csrf`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { csrfToken?: unknown }
    expect(body.csrfToken).toEqual(expect.stringMatching(/^\S{32,}$/))
    const csrfCookies = res.headers.getSetCookie().filter((c) => c.startsWith("authjs.csrf-token="))
    expect(csrfCookies).toHaveLength(1)
    expect(csrfCookies[0]).toMatch(/HttpOnly/i)
    expect(csrfCookies[0]).toMatch(/SameSite=Lax/i)
    expect(csrfCookies[0]).toMatch(/Path=\//i)
  })

  it("refuses a cross-site POST to /auth/signout and keeps the session", async () => {
    const res = await fetch(`${baseURL}/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: {
        cookie: cookieHeader,
        origin: "https://evil.example",
        "sec-fetch-site": "cross-site",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "callbackUrl=https%3A%2F%2Fevil.example%2F",
    })
    const location = res.headers.get("location") ?? ""
    expect(location).not.toContain("evil.example")
    const clears = res.headers
      .getSetCookie()
      .some(
        (c) => /^authjs\.session-token=;/.test(c) || /^authjs\.session-token=.*Max-Age=0/i.test(c),
      )
    expect(clears).toBe(false)
    await expect(session(cookieHeader)).resolves.toMatchObject({
      user: { email: "demo@example.com" },
    })
  })

  it("reads a fresh session on page requests without writing any cookie", async () => {
    for (const path of ["/", "/q-data.json", "/protected/"]) {
      const res = await fetch(`${baseURL}${path}`, {
        headers: { cookie: cookieHeader },
        redirect: "manual",
      })
      expect(res.status, path).toBe(200)
      expect(res.headers.getSetCookie(), path).toEqual([])
    }
  })

  it("clears an unreadable session cookie on a page request, once", async () => {
    const res = await fetch(`${baseURL}/`, { headers: { cookie: "authjs.session-token=garbage" } })
    expect(res.status).toBe(200)
    const cleared = res.headers.getSetCookie().filter((c) => c.startsWith("authjs.session-token="))
    expect(cleared).toHaveLength(1)
    expect(cleared[0]).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i)
  })

  it("refuses a cross-site form post to the sign-in action (Qwik City's origin check)", async () => {
    const html = await (await fetch(`${baseURL}/signin/`)).text()
    const action = /action="([^"]*qaction=[^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&")
    expect(action).toBeDefined()
    const res = await fetch(new URL(action!, `${baseURL}/signin/`), {
      method: "POST",
      redirect: "manual",
      headers: {
        origin: "https://evil.example",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "providerId=password&options.email=demo%40example.com&options.password=latchkey-demo",
    })
    expect(res.status).toBe(403)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("answers invalid action input with 400 and no cookies", async () => {
    const html = await (await fetch(`${baseURL}/signin/`)).text()
    const action = /action="([^"]*qaction=[^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&")
    const res = await fetch(new URL(action!, `${baseURL}/signin/`), {
      method: "POST",
      redirect: "manual",
      headers: { origin: baseURL, "content-type": "application/x-www-form-urlencoded" },
      body: "providerId=..%2Fsignout&authorizationParams=client_id%3Devil",
    })
    expect(res.status).toBe(400)
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("answers unknown actions under /auth with an error, not a crash", async () => {
    const res = await fetch(`${baseURL}/auth/not-an-action`, { redirect: "manual" })
    expect(res.status).toBeLessThan(500)
  })
})
