// Auth() GET /auth/session with a valid JWT session cookie: Latchkey vs @auth/core's Auth(),
// same secret, same cookie (the formats are interchangeable), a fresh Request per call as a
// server would build one.
import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { Auth } from "@latchkey/core"
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { fmt, printTable, ratio, runScenario } from "./harness.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const COOKIE = "authjs.session-token"

export async function benchAuthSession() {
  const token = await encode({
    token: { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: "user-1" },
    secret: SECRET,
    salt: COOKIE,
  })
  const authorize = async () => null
  const latchkeyConfig = {
    secret: SECRET,
    trustHost: true,
    providers: [Credentials({ authorize })],
  }
  const authjsConfig = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    providers: [AuthJsCredentials({ authorize })],
  }
  const request = () =>
    new Request("http://localhost:3000/auth/session", { headers: { cookie: `${COOKIE}=${token}` } })

  const check = async (res, who) => {
    const body = await res.json()
    if (body?.user?.email !== "ada@example.com")
      throw new Error(`${who}: no session in the response`)
  }
  await check(await Auth(request(), latchkeyConfig), "latchkey")
  await check(await AuthJs(request(), authjsConfig), "authjs")

  const r = await runScenario({
    latchkey: async () => (await Auth(request(), latchkeyConfig)).text(),
    authjs: async () => (await AuthJs(request(), authjsConfig)).text(),
  })
  printTable(
    "Auth() GET /auth/session, valid JWT cookie (requests/s)",
    ["scenario", "Latchkey", "@auth/core", "Latchkey ÷ Auth.js"],
    [["JWT session read", fmt(r.latchkey), fmt(r.authjs), ratio(r.latchkey, r.authjs)]],
  )
}
