/**
 * Issue 42 item 2, written as the attack: an account's sign-in counter used to sit with the
 * per-IP and per-address counters in the memory store's evictable part, oldest first. Ten wrong
 * guesses, then 10,050 cheap "forgot" requests from distinct client addresses, and the account
 * had ten fresh guesses. Counters that guard an account now live apart: no other traffic pushes
 * them out, and among themselves the one with the fewest attempts goes first.
 */
import { describe, expect, it } from "vitest"
import { MemoryStore } from "../../src/store.js"
import { req } from "../auth/helpers.js"
import { browser, provenAccount, setup, signIn } from "../password/helpers.js"

const errorOf = (res: Response) =>
  new URL(res.headers.get("location") ?? "http://x/").searchParams.get("error")

/** `n` POSTs of `path` from one browser, each from another client address, `batch` at a time. */
async function flood(
  app: ReturnType<typeof setup>,
  n: number,
  path: string,
  body: (i: number) => Record<string, string>,
) {
  const b = await browser(app)
  const statuses = new Map<number, number>()
  const batch = 500
  for (let start = 0; start < n; start += batch) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(batch, n - start) }, (_, k) => {
        const i = start + k
        return app.auth(
          req(path, {
            form: { csrfToken: b.csrfToken, ...body(i) },
            jar: b.jar,
            headers: {
              accept: "application/json",
              "x-forwarded-for": `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
            },
          }),
        )
      }),
    )
    for (const res of answers) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  }
  return statuses
}

async function tenWrongGuesses(app: ReturnType<typeof setup>) {
  for (let i = 0; i < 10; i++) {
    const { res } = await signIn(app, "ann@example.com", `wrong-guess-${i}`)
    expect(errorOf(res)).toBe("CredentialsSignin")
  }
}

describe("the per-account sign-in limit under a flood", () => {
  it("attack: 10 wrong guesses, 10,050 forgot requests from distinct IPs: the 11th guess is still refused", async () => {
    const app = setup()
    await provenAccount(app)
    await tenWrongGuesses(app)
    const statuses = await flood(app, 10_050, "/auth/password/forgot", (i) => ({
      email: `stranger-${i}@example.net`,
    }))
    expect(statuses).toEqual(new Map([[200, 10_050]]))
    const { res } = await signIn(app, "ann@example.com", "wrong-guess-11")
    expect(errorOf(res)).toBe("RateLimited")
    // Even the right password waits for the window: nothing reset the count.
    expect(errorOf((await signIn(app, "ann@example.com", "tangerine-orbit-cabinet")).res)).toBe(
      "RateLimited",
    )
  }, 120_000)

  it("attack: a flood of invented account names, one guess each, does not push out a counter holding more", async () => {
    // Small parts, so the flood overflows them many times over.
    const app = setup({}, { store: new MemoryStore({ maxKeys: 50, maxAccountKeys: 50 }) })
    await provenAccount(app)
    await tenWrongGuesses(app)
    const statuses = await flood(app, 1_000, "/auth/callback/password", (i) => ({
      email: `invented-${i}@example.net`,
      password: "guess",
    }))
    // Each one refused as a failed sign-in (a fetch client gets it as JSON, status 400).
    expect(statuses).toEqual(new Map([[400, 1_000]]))
    expect(errorOf((await signIn(app, "ann@example.com", "wrong-guess-11")).res)).toBe(
      "RateLimited",
    )
  }, 120_000)
})
