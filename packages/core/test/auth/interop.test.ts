import { Auth as AuthJs } from "@auth/core"
import AuthJsCredentials from "@auth/core/providers/credentials"
import { describe, expect, it } from "vitest"
import { Auth, getSession } from "../../src/index.js"
import { alice, Jar, makeConfig, ORIGIN, req, SECRET, signInWithCredentials } from "./helpers.js"

const authjsConfig = {
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  providers: [
    AuthJsCredentials({
      credentials: { username: {}, password: {} },
      authorize: async (c) =>
        c.username === "alice" && c.password === "wonderland" ? alice : null,
    }),
  ],
  logger: { error: () => {}, warn: () => {}, debug: () => {} },
}

async function signInWithAuthJs() {
  const jar = new Jar()
  const csrf = await AuthJs(req("/auth/csrf", { jar }), authjsConfig)
  jar.take(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const res = await AuthJs(
    req("/auth/callback/credentials", {
      form: { username: "alice", password: "wonderland", csrfToken },
      jar,
    }),
    authjsConfig,
  )
  jar.take(res)
  return jar
}

describe("Auth.js interop", () => {
  it("reads a session cookie set by @auth/core's Auth()", async () => {
    const jar = await signInWithAuthJs()
    expect(jar.get("authjs.session-token")).toBeDefined()
    const { session } = await getSession(req("/", { jar }), makeConfig())
    expect(session?.user).toEqual({ name: "Alice", email: "alice@example.com", image: null })
    const res = await Auth(req("/auth/session", { jar }), makeConfig())
    expect(((await res.json()) as { user: { email: string } }).user.email).toBe("alice@example.com")
  })

  it("@auth/core reads a session cookie set by ours", async () => {
    const { jar } = await signInWithCredentials(Auth, makeConfig())
    const res = await AuthJs(req("/auth/session", { jar }), authjsConfig)
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })

  it("@auth/core reads our chunked cookie, and we read theirs", async () => {
    const big = "y".repeat(9000)
    const ours = makeConfig({ callbacks: { jwt: ({ token }) => ({ ...token, big }) } })
    const { jar } = await signInWithCredentials(Auth, ours)
    expect(jar.get("authjs.session-token.1")).toBeDefined()
    const theirs = {
      ...authjsConfig,
      callbacks: {
        session: ({ session, token }: { session: object; token: { big?: string } }) => ({
          ...session,
          big: token.big?.length,
        }),
      },
    }
    const res = await AuthJs(req("/auth/session", { jar }), theirs as typeof authjsConfig)
    expect(await res.json()).toMatchObject({ big: 9000 })

    const theirJar = new Jar()
    const csrf = await AuthJs(req("/auth/csrf", { jar: theirJar }), authjsConfig)
    theirJar.take(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const bigConfig = {
      ...authjsConfig,
      callbacks: { jwt: ({ token }: { token: object }) => ({ ...token, big }) },
    }
    theirJar.take(
      await AuthJs(
        req("/auth/callback/credentials", {
          form: { username: "alice", password: "wonderland", csrfToken },
          jar: theirJar,
        }),
        bigConfig,
      ),
    )
    expect(theirJar.get("authjs.session-token.1")).toBeDefined()
    const mine = makeConfig({
      callbacks: {
        session: ({ session, token }) => ({ ...session, big: (token.big as string).length }),
      },
    })
    expect((await getSession(req("/", { jar: theirJar }), mine)).session).toMatchObject({
      big: 9000,
    })
  })

  it("uses the same redirect target as Auth.js after a credentials sign-in", async () => {
    const { res } = await signInWithCredentials(Auth, makeConfig(), new Jar(), {
      username: "alice",
      password: "wonderland",
      callbackUrl: "/x",
    })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/x`)
  })
})
