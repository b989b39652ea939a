import { parse as parseSetCookie } from "cookie"
import Credentials from "../../src/providers/credentials.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig, LoggerInstance } from "../../src/types.js"

export const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"
export const ORIGIN = "http://app.example.com"
export const SECURE_ORIGIN = "https://app.example.com"

export const alice = { id: "user-alice", name: "Alice", email: "alice@example.com", image: null }

export function credentialsProvider(id = "credentials") {
  return Credentials({
    id,
    credentials: {
      username: { label: "Username" },
      password: { label: "Password", type: "password" },
    },
    authorize: async (c) => (c.username === "alice" && c.password === "wonderland" ? alice : null),
  })
}

/** A logger that records every call (for assertions and the no-secrets-in-logs test). */
export function recordingLogger() {
  const calls: { level: string; args: unknown[] }[] = []
  const logger: LoggerInstance = {
    error: (...args) => void calls.push({ level: "error", args }),
    warn: (...args) => void calls.push({ level: "warn", args }),
    debug: (...args) => void calls.push({ level: "debug", args }),
  }
  return {
    logger,
    calls,
    warnings: () => calls.filter((c) => c.level === "warn").map((c) => c.args[0]),
  }
}

export function makeConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    providers: [credentialsProvider()],
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    // Each config counts its own sign-in attempts: tests sign alice in far more than 10 times.
    store: new MemoryStore(),
    ...overrides,
  }
}

export interface Sent {
  name: string
  value: string
  raw: string
  attributes: Record<string, string | true>
}

/** Every Set-Cookie of a response, parsed. */
export function setCookies(response: Response): Sent[] {
  return response.headers.getSetCookie().map((raw) => {
    const [pair, ...attrs] = raw.split(/;\s*/)
    const eq = pair!.indexOf("=")
    const attributes: Record<string, string | true> = {}
    for (const a of attrs) {
      const i = a.indexOf("=")
      attributes[(i === -1 ? a : a.slice(0, i)).toLowerCase()] = i === -1 ? true : a.slice(i + 1)
    }
    return {
      name: pair!.slice(0, eq),
      value: decodeURIComponent(pair!.slice(eq + 1)),
      raw,
      attributes,
    }
  })
}

/** A browser-ish cookie jar: applies Set-Cookie (including deletions) and builds `Cookie`. */
export class Jar {
  readonly cookies = new Map<string, string>()
  take(response: Response): this {
    for (const c of setCookies(response)) {
      if (c.attributes["max-age"] === "0" || c.value === "") this.cookies.delete(c.name)
      else this.cookies.set(c.name, c.value)
    }
    return this
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }
  get(name: string) {
    return this.cookies.get(name)
  }
}

export interface RequestOptions {
  method?: string
  form?: Record<string, string>
  json?: unknown
  body?: BodyInit
  headers?: Record<string, string>
  jar?: Jar
  origin?: string
}

/** A request to the auth endpoints; POSTs are same-origin (Sec-Fetch-Site) unless headers say otherwise. */
export function req(path: string, o: RequestOptions = {}): Request {
  const origin = o.origin ?? ORIGIN
  const headers = new Headers(o.headers)
  let body: BodyInit | undefined = o.body
  if (o.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(o.form).toString()
  } else if (o.json !== undefined) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(o.json)
  }
  const method = o.method ?? (body !== undefined ? "POST" : "GET")
  if (method === "POST" && !headers.has("sec-fetch-site") && !o.headers?.["x-no-fetch-metadata"]) {
    headers.set("sec-fetch-site", "same-origin")
  }
  headers.delete("x-no-fetch-metadata")
  if (o.jar && o.jar.cookies.size > 0) headers.set("cookie", o.jar.header())
  return new Request(`${origin}${path}`, { method, headers, body })
}

export async function signInWithCredentials(
  Auth: (r: Request, c: AuthConfig) => Promise<Response>,
  config: AuthConfig,
  jar = new Jar(),
  form: Record<string, string> = { username: "alice", password: "wonderland" },
  origin = ORIGIN,
) {
  const res = await Auth(req("/auth/callback/credentials", { form, jar, origin }), config)
  jar.take(res)
  return { res, jar }
}

export { parseSetCookie }
