/**
 * A strict session read over Redis: the revoked-sid and session-version lookups go out as one
 * command (`getMany`, an `MGET`), and both still refuse what they should.
 */
import { getSession, revokeSession, revokeUserSessions } from "@latchkey/core"
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { RedisStore } from "../src/index.js"
import {
  connect,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
  uniquePrefix,
} from "./helpers.js"

const SECRET = "s".repeat(32)
const COOKIE = "authjs.session-token"

describe.skipIf(!hasRedisServer)("strict revocation over RedisStore", () => {
  let server: RedisServer
  let client: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    server = await startRedisServer()
    client = await connect(server.url)
  })
  afterAll(async () => {
    await client?.close().catch(() => {})
    await server?.kill()
  })

  async function setup() {
    const store = new RedisStore({ client, prefix: uniquePrefix("strict") })
    const config = {
      secret: SECRET,
      trustHost: true,
      store,
      session: { strategy: "jwt" as const, revocation: "strict" as const },
      providers: [Credentials({ authorize: async () => null })],
      // The refusals below are expected; their warnings would only clutter the output.
      logger: { warn: () => {} },
    }
    const sid = crypto.randomUUID()
    const token = await encode({
      token: {
        sub: "user-1",
        email: "a@example.com",
        sid,
        auth_time: Math.floor(Date.now() / 1000),
        sv: 0,
      },
      secret: SECRET,
      salt: COOKIE,
    })
    const request = new Request("http://localhost/", { headers: { cookie: `${COOKIE}=${token}` } })
    const read = async () => (await getSession(request, config)).session
    return { store, config, sid, read }
  }

  it("asks Redis once per read, with one command for both keys", async () => {
    const { store, read } = await setup()
    const getMany = vi.spyOn(store, "getMany")
    const get = vi.spyOn(store, "get")
    expect((await read())?.user?.email).toBe("a@example.com")
    expect(getMany).toHaveBeenCalledTimes(1)
    expect(getMany.mock.calls[0]?.[0]).toHaveLength(2)
    expect(get).not.toHaveBeenCalled()
  })

  it("refuses a revoked session id and a session of a user signed out everywhere", async () => {
    const one = await setup()
    expect(await one.read()).not.toBeNull()
    await revokeSession(one.config, one.sid)
    expect(await one.read()).toBeNull()

    const all = await setup()
    expect(await all.read()).not.toBeNull()
    await revokeUserSessions(all.config, "user-1")
    expect(await all.read()).toBeNull()
  })
})
