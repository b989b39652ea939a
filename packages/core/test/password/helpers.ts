/** A password-account app on the memory adapter, with a counting hasher and captured mails. */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { createPasswordHasher, type PasswordHasher } from "../../src/features/password/hash.js"
import { Auth, flushDeferred } from "../../src/index.js"
import Password, {
  type PasswordUserConfig,
  type SendPasswordMailParams,
} from "../../src/providers/password.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, recordingLogger, req, SECRET } from "../auth/helpers.js"

export { Jar, req }

/** Wraps a hasher and counts its calls: how timing equalisation is tested (no wall clock). */
export function countingHasher(inner: PasswordHasher = fastHasher()) {
  const counts = { hash: 0, verify: 0 }
  const hasher: PasswordHasher = {
    hash: (password) => {
      counts.hash++
      return inner.hash(password)
    },
    verify: (hash, password) => {
      counts.verify++
      return inner.verify(hash, password)
    },
    needsRehash: (hash) => inner.needsRehash(hash),
  }
  return { hasher, counts }
}

/** PBKDF2 at a test cost: the flows, not the cost, are under test here. */
export function fastHasher(): PasswordHasher {
  return createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 })
}

export function setup(options: PasswordUserConfig = {}, overrides: Partial<AuthConfig> = {}) {
  const mails: SendPasswordMailParams[] = []
  const { hasher, counts } = countingHasher()
  const adapter = MemoryAdapter()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    logger: log.logger,
    store: new MemoryStore(),
    providers: [
      Password({
        hasher,
        sendPasswordMail: (params) => {
          mails.push(params)
        },
        ...options,
      }),
    ],
    ...overrides,
  }
  const auth = (request: Request) => Auth(request, config)
  return { config, adapter, mails, counts, auth, log }
}

export type App = ReturnType<typeof setup>

/** A fresh browser with a CSRF token. */
export async function browser(app: App) {
  const jar = new Jar()
  const res = await app.auth(req("/auth/csrf", { jar }))
  jar.take(res)
  const { csrfToken } = (await res.json()) as { csrfToken: string }
  return { jar, csrfToken }
}

/** POST a form as a browser without script (Accept: text/html). */
export async function postForm(
  app: App,
  path: string,
  form: Record<string, string>,
  b: { jar: Jar; csrfToken: string },
  accept = "text/html",
) {
  const res = await app.auth(
    req(path, { form: { csrfToken: b.csrfToken, ...form }, jar: b.jar, headers: { accept } }),
  )
  b.jar.take(res)
  // The mails a request leaves for after its answer, sent before the test reads them.
  await flushDeferred()
  return res
}

/** POST JSON as a fetch client. */
export async function postJson(
  app: App,
  path: string,
  json: Record<string, unknown>,
  b: { jar: Jar; csrfToken: string },
) {
  const res = await app.auth(
    req(path, {
      json: { csrfToken: b.csrfToken, ...json },
      jar: b.jar,
      headers: { accept: "application/json" },
    }),
  )
  b.jar.take(res)
  await flushDeferred()
  return res
}

export function linkParams(mail: SendPasswordMailParams) {
  const url = new URL(mail.url!)
  return {
    path: url.pathname,
    token: url.searchParams.get("token")!,
    uid: url.searchParams.get("uid")!,
    email: url.searchParams.get("email")!,
  }
}

export const GOOD = "tangerine-orbit-cabinet"

/** Sign up, confirm the mailed link: a proven account with `password`. */
export async function provenAccount(app: App, email = "ann@example.com", password = GOOD) {
  const b = await browser(app)
  await postJson(app, "/auth/password/signup", { email, password }, b)
  const mail = app.mails.findLast((m) => m.purpose === "verify" && m.identifier === email)!
  const { token, uid } = linkParams(mail)
  const res = await postJson(app, "/auth/password/verify", { token, uid, email }, b)
  if (res.status !== 200) throw new Error(`verify failed: ${res.status} ${await res.text()}`)
  return uid
}

export async function signIn(
  app: App,
  email: string,
  password: string,
  b?: { jar: Jar; csrfToken: string },
) {
  const who = b ?? (await browser(app))
  const res = await postForm(app, "/auth/callback/password", { email, password }, who)
  return { res, ...who }
}

export function sessionCookie(jar: Jar) {
  return jar.get("authjs.session-token")
}
