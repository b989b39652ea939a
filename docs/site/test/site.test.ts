/**
 * The documentation site as readers get it: built once with VitePress, served on a loopback
 * port, read in Debian's Chromium. Every page reachable from the home page renders its title
 * with and without JavaScript, every internal link (and its #anchor) lands on a page that has
 * it, and the offline search finds what readers look for.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, open, pageErrors } from "../../../e2e/browser.ts"
import { serve } from "./serve.ts"

const site = fileURLToPath(new URL("..", import.meta.url))
const vitepress = fileURLToPath(
  new URL("../../../node_modules/vitepress/bin/vitepress.js", import.meta.url),
)

let browser: Browser
let server: Awaited<ReturnType<typeof serve>>
/** Every internal page reached from `/`, with the ids its HTML has. */
const pages = new Map<string, Set<string>>()
/** Every internal link met: the page it is on and its target. */
const links: { from: string; to: string }[] = []

/** The internal links of a page's HTML as the server sent it (what a reader without JS has). */
function internalLinks(html: string, from: string): string[] {
  const found: string[] = []
  for (const [, href] of html.matchAll(/<a [^>]*href="([^"]+)"/g)) {
    const url = new URL(href!.replaceAll("&amp;", "&"), `http://site${from}`)
    if (url.host === "site" && !/\.(css|js|svg|png)$/.test(url.pathname)) {
      found.push(url.pathname + url.hash)
    }
  }
  return found
}

async function crawl(): Promise<void> {
  const queue = ["/"]
  while (queue.length > 0) {
    const path = queue.shift()!
    if (pages.has(path)) continue
    const res = await fetch(server.url + path)
    expect(res.status, `${path} answers`).toBe(200)
    const html = await res.text()
    pages.set(path, new Set([...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!)))
    for (const to of internalLinks(html, path)) {
      links.push({ from: path, to })
      const target = to.split("#")[0]!
      if (!pages.has(target) && !queue.includes(target)) queue.push(target)
    }
  }
}

beforeAll(async () => {
  execFileSync(process.execPath, [vitepress, "build", site], { stdio: "pipe" })
  server = await serve(fileURLToPath(new URL("../.vitepress/dist", import.meta.url)))
  await crawl()
  browser = await launch()
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

it("reaches every page of the sidebar, and every page from the home page", () => {
  const expected = ["/", "/getting-started", "/guides/password", "/guides/passkeys"]
  expected.push("/guides/email-links", "/guides/oauth", "/guides/credentials", "/sessions")
  expected.push("/deploying", "/qwik2", "/account", "/migrating", "/reference/configuration")
  expected.push("/reference/log-codes", "/reference/build-warnings", "/token", "/security")
  expected.push("/reference/providers")
  expected.push("/benchmarks", "/design/", "/design/address-ownership", "/design/store-contract")
  expected.push("/design/pending-grants", "/design/kernel-and-features", "/design/organizations")
  expected.push("/guides/organizations")
  expect([...pages.keys()].sort()).toEqual(expect.arrayContaining(expected.sort()))
})

it("has no broken internal link: each target page exists and has the anchor", () => {
  expect(links.filter(({ to }) => to.includes("#") && !to.startsWith("/#")).length).toBeGreaterThan(
    20,
  )
  const broken = links.filter(({ to }) => {
    const [path, hash] = to.split("#")
    const ids = pages.get(path!)
    return !ids || (hash !== undefined && hash !== "" && !ids.has(decodeURIComponent(hash)))
  })
  expect(broken).toEqual([])
})

describe.each([true, false])("JavaScript %s", (javaScriptEnabled) => {
  it("renders every page: its title, its text, its sidebar; no page error", async () => {
    const { context, page } = await open(browser, server.url, { javaScriptEnabled })
    try {
      for (const path of pages.keys()) {
        await page.goto(path)
        const h1 = page.locator(".vp-doc h1").first()
        await expect.poll(() => h1.isVisible(), { message: path }).toBe(true)
        // Playwright's innerText: the text as rendered for a reader, not the DOM property.
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's method, not the DOM's
        expect((await h1.innerText()).length, path).toBeGreaterThan(3)
        // biome-ignore lint/performance/useDomNodeTextContent: Playwright's method, not the DOM's
        expect((await page.locator(".vp-doc").innerText()).length, path).toBeGreaterThan(200)
        await expect
          .poll(() => page.locator(".VPSidebar a").count(), { message: path })
          .toBeGreaterThan(15)
      }
    } finally {
      await context.close()
    }
    expect(pageErrors).toEqual([])
  })
})

describe("search, offline (the index ships with the site)", () => {
  async function search(page: Page, query: string): Promise<string[]> {
    await page.goto("/")
    await page.locator("#local-search button").click()
    const input = page.locator(".VPLocalSearchBox input")
    await input.fill(query)
    const results = page.locator(".VPLocalSearchBox .results a")
    await expect.poll(() => results.count(), { message: query }).toBeGreaterThan(0)
    return results.evaluateAll((as) => as.map((a) => a.getAttribute("href") ?? ""))
  }

  it.each([
    ["two-factor", "/account"],
    ["revocation", "/sessions"],
  ])('finds "%s" on %s', async (query, page) => {
    const session = await open(browser, server.url)
    try {
      const hrefs = await search(session.page, query)
      expect(hrefs.some((href) => href.startsWith(page))).toBe(true)
    } finally {
      await session.context.close()
    }
  })
})
