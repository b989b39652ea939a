// Passkey ceremonies through Auth(): registration (options + attestation verification, user and
// authenticator created) and sign-in (options + assertion verification, counter stored), per
// second, Latchkey next to @auth/core — same in-memory adapter, JWT sessions, the software
// authenticator of the tests (real P-256 keys) on both sides. @auth/core runs on a v9-API shim
// over @simplewebauthn/server v14 (see passkey/simplewebauthn-v9-shim.mjs).

import { mkdtempSync, writeFileSync } from "node:fs"
import { register } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { Auth as AuthJs } from "@auth/core"
import { Auth } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Passkey from "@latchkey/core/providers/passkey"
import { MemoryStore } from "@latchkey/core/store"
import { build } from "esbuild"
import { fmt, printTable, ratio, runScenario } from "./harness.mjs"

const ORIGIN = "http://localhost:3000"
const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"

/** The tests' software authenticator (TypeScript), bundled for Node. */
async function loadAuthenticator() {
  const out = await build({
    entryPoints: [
      new URL("../packages/adapter-test/src/webauthn-authenticator.ts", import.meta.url).pathname,
    ],
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
  })
  const file = join(mkdtempSync(join(tmpdir(), "latchkey-bench-")), "authenticator.mjs")
  writeFileSync(file, out.outputFiles[0].text)
  return import(pathToFileURL(file).href)
}

/** A browser: a cookie jar and the two requests of a ceremony. */
function client(handler, config) {
  const jar = new Map()
  const send = async (path, init = {}) => {
    const headers = new Headers(init.headers)
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "))
    const res = await handler(new Request(`${ORIGIN}/auth${path}`, { ...init, headers }), config)
    for (const raw of res.headers.getSetCookie()) {
      const [pair] = raw.split(";")
      const eq = pair.indexOf("=")
      const value = pair.slice(eq + 1)
      if (value === "" || /max-age=0/i.test(raw)) jar.delete(pair.slice(0, eq))
      else jar.set(pair.slice(0, eq), value)
    }
    return res
  }
  return {
    async ceremony(action, query, respond) {
      const res = await send(
        `/webauthn-options/passkey?${new URLSearchParams({ action, ...query })}`,
      )
      if (res.status !== 200) throw new Error(`options ${res.status}: ${await res.text()}`)
      const { options } = await res.json()
      const done = await send("/callback/passkey", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-auth-return-redirect": "1",
          origin: ORIGIN,
          "sec-fetch-site": "same-origin",
        },
        body: new URLSearchParams({ action, data: JSON.stringify(respond(options)) }).toString(),
      })
      const body = await done.json()
      if (done.status !== 200 || !body.url || body.url.includes("error")) {
        throw new Error(`callback ${done.status}: ${JSON.stringify(body)}`)
      }
    },
  }
}

export async function benchPasskeys() {
  register("./passkey/resolve-hook.mjs", import.meta.url)
  const { default: AuthJsPasskey } = await import("@auth/core/providers/passkey")
  const { softwareAuthenticator } = await loadAuthenticator()

  const latchkey = {
    providers: [Passkey({ rateLimit: false })],
    adapter: MemoryAdapter(),
    secret: SECRET,
    trustHost: true,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    store: new MemoryStore({ maxKeys: 1_000_000 }),
    logger: { warn() {}, debug() {} },
  }
  const authjs = {
    providers: [AuthJsPasskey({})],
    adapter: MemoryAdapter(),
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: { warn() {}, debug() {} },
  }

  let n = 0
  const registration = (handler, config) => async () => {
    const key = softwareAuthenticator()
    await client(handler, config).ceremony("register", { email: `u${++n}@example.com` }, (o) =>
      key.register(o, { origin: ORIGIN }),
    )
  }
  const signIn = async (handler, config) => {
    const key = softwareAuthenticator()
    await client(handler, config).ceremony("register", { email: `signer${++n}@example.com` }, (o) =>
      key.register(o, { origin: ORIGIN }),
    )
    let counter = 0
    return async () =>
      client(handler, config).ceremony("authenticate", {}, (o) =>
        key.authenticate(o, { origin: ORIGIN, counter: ++counter }),
      )
  }

  const reg = await runScenario({
    latchkey: registration(Auth, latchkey),
    authjs: registration(AuthJs, authjs),
  })
  const auth = await runScenario({
    latchkey: await signIn(Auth, latchkey),
    authjs: await signIn(AuthJs, authjs),
  })
  printTable(
    "Passkey ceremonies through Auth(): options + verification (ceremonies/s)",
    ["ceremony", "Latchkey", "@auth/core", "Latchkey ÷ Auth.js"],
    [
      [
        "registration (attestation `none`)",
        fmt(reg.latchkey),
        fmt(reg.authjs),
        ratio(reg.latchkey, reg.authjs),
      ],
      [
        "sign-in (assertion)",
        fmt(auth.latchkey),
        fmt(auth.authjs),
        ratio(auth.latchkey, auth.authjs),
      ],
    ],
  )
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await benchPasskeys()
