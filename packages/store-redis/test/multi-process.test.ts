/**
 * Two Node processes sharing one Redis (the REDIS_URL server), each a Latchkey instance built
 * from the packages' dist/: a limit holds across both, a sign-out on one is refused on the
 * other, a replayed OAuth state is refused on the other.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { REDIS_URL, uniquePrefix } from "./helpers.js"

const script = fileURLToPath(new URL("./fixtures/instance.mjs", import.meta.url))
const built = ["../../core/dist/index.js", "../dist/index.js"].every((p) =>
  existsSync(fileURLToPath(new URL(p, import.meta.url))),
)

interface Instance {
  call<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T>
  child: ChildProcess
}

const children: ChildProcess[] = []
afterAll(() => {
  for (const child of children) child.kill()
})

function instance(env: Record<string, string>): Instance {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  })
  children.push(child)
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const { id, result, error } = JSON.parse(line)
    const waiter = pending.get(id)
    pending.delete(id)
    if (error) waiter?.reject(new Error(error))
    else waiter?.resolve(result)
  })
  let next = 0
  return {
    child,
    call: <T>(op: string, args?: Record<string, unknown>) =>
      new Promise<T>((resolve, reject) => {
        const id = next++
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
        child.stdin!.write(`${JSON.stringify({ id, op, args })}\n`)
      }),
  }
}

function pair(revocation: "strict" | "reissue"): [Instance, Instance] {
  const env = {
    REDIS_URL: REDIS_URL!,
    PREFIX: uniquePrefix(`multi-${revocation}`),
    SECRET: "a-shared-secret-of-at-least-thirty-two-bytes!!",
    REVOCATION: revocation,
  }
  return [instance(env), instance(env)]
}

describe.skipIf(!REDIS_URL || !built)("two instances sharing one Redis", () => {
  const [a, b] = pair("strict")

  it("a limit of 5 sign-in attempts per account holds across both processes", async () => {
    const answers: (string | null)[] = []
    for (let i = 0; i < 6; i++)
      answers.push(await (i % 2 ? b : a).call("attempt", { password: "x" }))
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("CredentialsSignin"))
    expect(answers[5]).toBe("RateLimited")
    // Concurrent attempts from both cannot slip past it either.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? b : a).call("attempt", { password: "x" })),
    )
    expect(burst.every((e) => e === "RateLimited")).toBe(true)
  })

  it("strict: a sign-out on one instance is refused on the other at the next read", async () => {
    const cookie = await a.call<string>("signIn")
    expect(await b.call("session", { cookie })).not.toBeNull()
    await a.call("signOut", { cookie })
    expect(await b.call("session", { cookie })).toBeNull()
  })

  it("a replayed OAuth state is refused on the other instance", async () => {
    const { state, cookie } = await a.call<{ state: string; cookie: string }>("startOAuth")
    // The first callback uses the state (then fails at the closed token endpoint).
    const first = await a.call<string[]>("oauthCallback", { state, cookie })
    expect(first).not.toContain("check-failed")
    const replay = await b.call<string[]>("oauthCallback", { state, cookie })
    expect(replay).toContain("check-failed")
    expect(replay.join("\n")).toContain("InvalidCheck: The state was already used")
  })

  it("reissue (default): the other instance refuses the signed-out cookie at its next re-issue", async () => {
    const [c, d] = pair("reissue")
    const cookie = await c.call<string>("signIn")
    await c.call("signOut", { cookie })
    // Inside updateAge the token is not re-issued: the cheap mode still answers.
    expect(await d.call("session", { cookie })).not.toBeNull()
    await d.call("travel", { seconds: 61 })
    expect(await d.call("session", { cookie })).toBeNull()
  })
})
