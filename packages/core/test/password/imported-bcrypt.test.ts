/**
 * Issue 42 item 3: an account still on its imported bcrypt hash (cost 12: ~700 ms) answered a
 * wrong password far slower than an unknown address (an argon2id dummy: ~210 ms), so its
 * timing told who had an account. Checks are equalised: while bcrypt hashes are in play, every
 * check does one argon2id run and bcrypt work of the imported cost. Tested by recording the
 * work itself — each argon2id and bcrypt run, with its parameters — through `Auth()`, with the
 * real default hasher at a test cost; never by the clock.
 *
 * The hasher learns the bcrypt cost per process, so the tests below run in order in this file
 * (its own module graph) and say what they expect of that state.
 */
import { beforeEach, describe, expect, it, vi } from "vitest"
import { createPasswordHasher } from "../../src/features/password/hash.js"
import { InvalidParameter } from "../../src/kernel/errors/errors.js"
import type { PasswordHasherOptions } from "../../src/providers/password.js"
import { provenAccount, setup, signIn } from "./helpers.js"

/** Every argon2id and bcrypt run, as "argon2id m=…,t=…,p=…" or "bcrypt <cost>". */
const work: string[] = []

vi.mock("hash-wasm", async (importOriginal) => {
  const real = await importOriginal<typeof import("hash-wasm")>()
  return {
    ...real,
    argon2id: (o: Parameters<typeof real.argon2id>[0]) => {
      work.push(`argon2id m=${o.memorySize},t=${o.iterations},p=${o.parallelism}`)
      return real.argon2id(o)
    },
    argon2Verify: (o: Parameters<typeof real.argon2Verify>[0]) => {
      work.push(`argon2id ${/m=\d+,t=\d+,p=\d+/.exec(o.hash)?.[0]}`)
      return real.argon2Verify(o)
    },
  }
})

vi.mock("bcryptjs", async (importOriginal) => {
  const real = await importOriginal<typeof import("bcryptjs")>()
  const costOf = (s: string) => `bcrypt ${Number(s.slice(4, 6))}`
  const wrapped = {
    ...real.default,
    compare: (password: string, hash: string) => {
      work.push(costOf(hash))
      return real.default.compare(password, hash)
    },
    hash: (password: string, salt: string) => {
      work.push(costOf(salt))
      return real.default.hash(password, salt)
    },
  }
  return { ...wrapped, default: wrapped }
})

const { default: bcrypt } = await import("bcryptjs")

const ARGON2 = { memorySize: 64, iterations: 1, parallelism: 1 }
const ARGON2_RUN = "argon2id m=64,t=1,p=1"

/** An app on the default hasher (argon2id at a test cost), with these four accounts. */
async function app(hasher: PasswordHasherOptions = {}, bcryptCost = 5) {
  const a = setup({ hasher: { algorithm: "argon2id", argon2: ARGON2, ...hasher } })
  await provenAccount(a, "ann@example.com") // argon2id
  await provenAccount(a, "bea@example.com")
  const bea = (await a.adapter.getUserByEmail!("bea@example.com"))!
  await a.adapter.setPasswordHash!(bea.id, bcrypt.hashSync("imported-password", bcryptCost))
  await a.adapter.createUser!({ id: "o", email: "otto@example.com", emailVerified: new Date() })
  return warm(a)
}

/** The dummy hash of unknown addresses is made once, at the first one: made before measuring. */
async function warm<A extends ReturnType<typeof setup>>(a: A): Promise<A> {
  await signIn(a, "warm-up@example.com", "a-wrong-password-guess")
  return a
}

/** The work one wrong-password sign-in does, sorted. */
async function workOf(a: Awaited<ReturnType<typeof app>>, email: string) {
  work.length = 0
  const { res } = await signIn(a, email, "a-wrong-password-guess")
  expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("CredentialsSignin")
  return work.splice(0).sort()
}

const PATHS = {
  "argon2id account": "ann@example.com",
  "bcrypt account": "bea@example.com",
  "unknown address": "nobody@example.com",
  "account without a password": "otto@example.com",
}

describe("an imported bcrypt hash does not tell accounts apart", () => {
  beforeEach(() => {
    work.length = 0
  })

  it("before any bcrypt hash is in play, a check is one argon2id run and nothing more", async () => {
    const a = await warm(setup({ hasher: { algorithm: "argon2id", argon2: ARGON2 } }))
    await provenAccount(a)
    expect(await workOf(a, "ann@example.com")).toEqual([ARGON2_RUN])
    expect(await workOf(a, "nobody@example.com")).toEqual([ARGON2_RUN])
  })

  it("with importedBcryptCost: every path does one argon2id and one bcrypt run of that cost", async () => {
    const a = await app({ importedBcryptCost: 6 }, 6)
    for (const [path, email] of Object.entries(PATHS)) {
      expect(await workOf(a, email), path).toEqual([ARGON2_RUN, "bcrypt 6"])
    }
  })

  it("a bcrypt hash of a lower cost than declared is topped up to the same rounds", async () => {
    const a = await app({ importedBcryptCost: 6 }, 4)
    // 2^4 + 2^4 + 2^5 = 2^6 rounds: as many as one run of cost 6.
    expect(await workOf(a, "bea@example.com")).toEqual([
      ARGON2_RUN,
      "bcrypt 4",
      "bcrypt 4",
      "bcrypt 5",
    ])
    expect(await workOf(a, "nobody@example.com")).toEqual([ARGON2_RUN, "bcrypt 6"])
  })

  it("without the option, the process learns the cost from the bcrypt hashes it checks", async () => {
    // The tests above checked bcrypt hashes of cost 6 and 4: cost 6 is learned.
    const a = await app({}, 6)
    for (const [path, email] of Object.entries(PATHS)) {
      expect(await workOf(a, email), path).toEqual([ARGON2_RUN, "bcrypt 6"])
    }
  })

  it("the imported hash still signs in, once, and is replaced by argon2id", async () => {
    const a = await app({ importedBcryptCost: 6 }, 6)
    const { jar } = await signIn(a, "bea@example.com", "imported-password")
    expect(jar.get("authjs.session-token")).toBeDefined()
    const bea = (await a.adapter.getUserByEmail!("bea@example.com"))!
    expect(await a.adapter.getPasswordHash!(bea.id)).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/)
  })

  it("refuses an importedBcryptCost bcrypt could not have made, naming the option", () => {
    for (const importedBcryptCost of [0, 3, 32, 12.5]) {
      expect(() => createPasswordHasher({ importedBcryptCost })).toThrowError(InvalidParameter)
      expect(() => createPasswordHasher({ importedBcryptCost })).toThrowError(
        /hasher.importedBcryptCost/,
      )
    }
  })
})
