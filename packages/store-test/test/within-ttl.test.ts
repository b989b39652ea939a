import { setTimeout as sleep } from "node:timers/promises"
import { expect, it } from "vitest"
import { withinTtl } from "../src/within-ttl.js"

it("returns the first run whose calls fitted in the TTL, with that TTL", async () => {
  const ttls: number[] = []
  const run = await withinTtl(40, async (ttl) => {
    ttls.push(ttl)
    // Slower than the first two TTLs, faster than the third.
    await sleep(100)
    return `run ${ttls.length}`
  })
  expect(ttls).toEqual([40, 80, 160])
  expect(run).toEqual({ ttlMs: 160, result: "run 3" })
})

it("runs once when the calls fit", async () => {
  let runs = 0
  expect(await withinTtl(1_000, async () => ++runs)).toEqual({ ttlMs: 1_000, result: 1 })
})

it("gives up after `tries` runs that never fitted, saying so", async () => {
  await expect(withinTtl(5, () => sleep(30), 2)).rejects.toThrow(
    /the calls took \d+ ms, longer than a 10 ms TTL, 2 times/,
  )
})

it("a failure inside a run that fitted is the case's failure, not retried", async () => {
  let runs = 0
  await expect(
    withinTtl(1_000, async () => {
      runs++
      throw new Error("the store refused")
    }),
  ).rejects.toThrow("the store refused")
  expect(runs).toBe(1)
})
