// Two-factor sign-in: how many second-factor verifications and pending-state reads one process
// serves per second. A verification is the whole check a sign-in pays for: the per-user attempt
// count (store hit), opening the sealed TOTP secret (JWE), the ±1-step TOTP match (otpauth) and
// consuming the step (store consumeOnce), with the memory store and adapter. A pending-state
// read is opening the sealed pending cookie; a session read with only that cookie is what
// every page a half-signed-in visitor loads costs (it reads as no session). Each figure is the
// median of three runs of the interleaved harness.
import { Auth, getSession } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { decode, encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { TwoFactor } from "@latchkey/core/two-factor"
import { TOTP } from "otpauth"
import {
  twoFactorContext,
  verifySecondFactor,
} from "../packages/core/dist/features/two-factor/service.js"
// Internal modules of the core's build (not public API): the verification itself.
import { resolveConfig } from "../packages/core/dist/kernel/config/resolve.js"
import { fmt, printTable, runScenario } from "./harness.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const PENDING = "latchkey.two-factor"

/** A memory store whose consumeOnce never sees a key twice: every verification is a first use. */
function freshKeys(store) {
  let n = 0
  return {
    hit: (k, w, l) => store.hit(k, w, l),
    consumeOnce: (k, ttl) => store.consumeOnce(`${k}:${n++}`, ttl),
    get: (k) => store.get(k),
    set: (k, v, t) => store.set(k, v, t),
    delete: (k) => store.delete(k),
  }
}

async function enrolledUser(config) {
  const jar = new Map()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
  const take = (res) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const i = pair.indexOf("=")
      const value = pair.slice(i + 1)
      if (value) jar.set(pair.slice(0, i), value)
      else jar.delete(pair.slice(0, i))
    }
  }
  const post = async (path, body) => {
    const res = await Auth(
      new Request(`http://localhost:3000${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          "sec-fetch-site": "same-origin",
          cookie: cookie(),
        },
        body: JSON.stringify(body),
      }),
      config,
    )
    take(res)
    return res
  }
  const signIn = await Auth(
    new Request("http://localhost:3000/auth/callback/credentials", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
      },
      body: "username=bench&password=bench",
    }),
    config,
  )
  take(signIn)
  const { secret } = await (await post("/auth/two-factor/enroll", {})).json()
  const code = new TOTP({ secret, digits: 6, period: 30 }).generate()
  const confirmed = await post("/auth/two-factor/confirm", { code })
  if (confirmed.status !== 200)
    throw new Error(`confirm failed: ${confirmed.status} ${await confirmed.text()}`)
  return secret
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

export async function benchTwoFactor() {
  const adapter = MemoryAdapter()
  await adapter.createUser({ id: "u1", email: "bench@example.com", emailVerified: null })
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: freshKeys(new MemoryStore()),
    session: { strategy: "jwt" },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    twoFactor: TwoFactor({ issuer: "Bench", rateLimit: { limit: 1e12, windowMs: 60_000 } }),
    providers: [Credentials({ authorize: async () => ({ id: "u1", email: "bench@example.com" }) })],
  }
  const secret = await enrolledUser(config)
  const tctx = twoFactorContext(resolveConfig(config))
  const totp = new TOTP({ secret, digits: 6, period: 30 })

  const pending = await encode({
    token: {
      uid: "u1",
      step: "verify",
      amr: ["pwd"],
      cb: "http://localhost:3000/",
      pid: "credentials",
    },
    secret: SECRET,
    salt: PENDING,
    maxAge: 300,
  })
  const pendingRequest = new Request("http://localhost:3000/", {
    headers: { cookie: `${PENDING}=${pending}` },
  })

  const contenders = {
    "TOTP match alone (otpauth, ±1 step)": () => {
      if (totp.validate({ token: totp.generate(), window: 1 }) === null) throw new Error("no match")
    },
    "second-factor verification (limit + sealed secret + TOTP + single use)": async () => {
      await verifySecondFactor(tctx, "u1", { code: totp.generate() })
    },
    "pending-state read (open the sealed cookie)": async () => {
      if (!(await decode({ token: pending, secret: SECRET, salt: PENDING }))) throw new Error("x")
    },
    "session read with only a pending cookie (→ no session)": async () => {
      if ((await getSession(pendingRequest, config)).session !== null) throw new Error("session!")
    },
  }
  const runs = []
  for (let i = 0; i < 3; i++) runs.push(await runScenario(contenders))
  const rows = Object.keys(contenders).map((name) => {
    const rate = median(runs.map((r) => r[name]))
    return [name, `${fmt(rate)}/s`, `${(1000 / rate).toFixed(3)} ms`]
  })
  printTable("Two-factor sign-in (median of three runs)", ["operation", "ops/s", "per op"], rows)
}
