/**
 * A password reset ends every JWT session of the user when revocation state lives in Redis
 * (the session version is bumped in the RedisStore): the other browsers' cookies are refused,
 * the resetting browser is signed in. Against REDIS_URL, else a redis-server started here.
 */
import { Auth, type AuthConfig, flushDeferred } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Password, {
  createPasswordHasher,
  type SendPasswordMailParams,
} from "@latchkey/core/providers/password"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Jar, req } from "../../core/test/auth/helpers.js"
import { RedisStore } from "../src/index.js"
import {
  connect,
  hasRedisServer,
  REDIS_URL,
  type RedisServer,
  startRedisServer,
  uniquePrefix,
} from "./helpers.js"

const SECRET = "s".repeat(32)
const GOOD = "tangerine-orbit-cabinet"

describe.skipIf(!REDIS_URL && !hasRedisServer)(
  "password reset over RedisStore (JWT sessions)",
  () => {
    let server: RedisServer | undefined
    let client: Awaited<ReturnType<typeof connect>>
    beforeAll(async () => {
      if (!REDIS_URL) server = await startRedisServer()
      client = await connect(REDIS_URL ?? server!.url)
    })
    afterAll(async () => {
      await client?.close().catch(() => {})
      await server?.kill()
    })

    for (const revocation of ["strict", "reissue"] as const) {
      it(`ends the other sessions (revocation: ${revocation}) and signs in the resetting browser`, async () => {
        const mails: SendPasswordMailParams[] = []
        const config: AuthConfig = {
          secret: SECRET,
          trustHost: true,
          adapter: MemoryAdapter(),
          store: new RedisStore({ client, prefix: uniquePrefix("password") }),
          // `updateAge: 0`: with "reissue", every read re-issues, so the version is checked.
          session: { strategy: "jwt", revocation, updateAge: 0 },
          logger: { error: () => {}, warn: () => {}, debug: () => {} },
          providers: [
            Password({
              hasher: createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 }),
              sendPasswordMail: (p) => void mails.push(p),
            }),
          ],
        }
        async function post(path: string, form: Record<string, string>, jar = new Jar()) {
          const csrf = await Auth(req("/auth/csrf", { jar }), config)
          jar.take(csrf)
          const { csrfToken } = (await csrf.json()) as { csrfToken: string }
          const res = await Auth(
            req(path, { form: { csrfToken, ...form }, jar, headers: { accept: "text/html" } }),
            config,
          )
          jar.take(res)
          // Mail whose due depends on an account leaves after the answer.
          await flushDeferred()
          return jar
        }
        const link = (purpose: string) =>
          Object.fromEntries(
            new URL(mails.findLast((m) => m.purpose === purpose)!.url!).searchParams,
          )
        async function email(jar: Jar) {
          const res = await Auth(req("/auth/session", { jar }), config)
          jar.take(res)
          return ((await res.json()) as { user?: { email?: string } } | null)?.user?.email
        }

        // The verify link is opened in the browser that signed up (elsewhere it is a claim).
        const signUp = await post("/auth/password/signup", {
          email: "ann@example.com",
          password: GOOD,
        })
        await post("/auth/password/verify", link("verify"), signUp)
        const phone = await post("/auth/callback/password", {
          email: "ann@example.com",
          password: GOOD,
        })
        expect(await email(phone)).toBe("ann@example.com")
        await post("/auth/password/forgot", { email: "ann@example.com" })
        const resetter = await post("/auth/password/reset", {
          ...link("reset"),
          password: "fresh-new-password",
        })
        expect(await email(resetter)).toBe("ann@example.com")
        expect(await email(phone)).toBeUndefined()
      })
    }
  },
)
