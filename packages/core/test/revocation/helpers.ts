/** Sign in, read, sign out, through `Auth()`, for the revocation tests. */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { decode, type JWT } from "../../src/kernel/token/jwt.js"
import { MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig, Session } from "../../src/types.js"
import { Jar, makeConfig, req, SECRET, signInWithCredentials } from "../auth/helpers.js"

/** The two ways revocation state is kept without Redis: the store, or the adapter's tables. */
export const backends = [
  { name: "memory store", extra: (): Partial<AuthConfig> => ({ store: new MemoryStore() }) },
  {
    name: "adapter (MemoryAdapter)",
    // No `store` of its own: the adapter's revocation methods are used.
    extra: (): Partial<AuthConfig> => ({ adapter: MemoryAdapter(), store: undefined }),
  },
] as const

export function jwtConfig(extra: Partial<AuthConfig>, session: AuthConfig["session"] = {}) {
  return makeConfig({ ...extra, session: { strategy: "jwt", ...session } })
}

export async function signIn(config: AuthConfig): Promise<Jar> {
  return (await signInWithCredentials(Auth, config)).jar
}

/** A copy of a jar (a stolen cookie). */
export function copyJar(jar: Jar): Jar {
  const copy = new Jar()
  for (const [k, v] of jar.cookies) copy.cookies.set(k, v)
  return copy
}

export async function readSession(config: AuthConfig, jar: Jar): Promise<Session | null> {
  const res = await Auth(req("/auth/session", { jar }), config)
  jar.take(res)
  return (await res.json()) as Session | null
}

export async function signOut(config: AuthConfig, jar: Jar, everywhere = false): Promise<void> {
  const form: Record<string, string> = everywhere ? { everywhere: "true" } : {}
  const res = await Auth(req("/auth/signout", { form, jar }), config)
  jar.take(res)
}

export async function tokenOf(jar: Jar): Promise<JWT> {
  const token = await decode({
    token: jar.get("authjs.session-token")!,
    secret: SECRET,
    salt: "authjs.session-token",
  })
  if (!token) throw new Error("no readable session token")
  return token
}

/** A store whose every command fails. */
export function deadStore(): Store {
  const fail = () => Promise.reject(new Error("connection refused"))
  return { hit: fail, consumeOnce: fail, get: fail, set: fail, delete: fail }
}
