/**
 * Plain-HTTP requests to an `Auth()` app, shared by the two-instance tests (workerd:
 * store-durable-object/test/two-instances.test.ts; Vercel Edge:
 * store-upstash/test/edge-instances.test.ts): a rate limit, a sign-out and a TOTP code, each
 * sent across the pair.
 */
import { totpCode } from "../packages/core/src/features/two-factor/totp.js"

/** A same-origin form post, as the built-in pages send it. */
export const form = (body: Record<string, string>, cookie = ""): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    "sec-fetch-site": "same-origin",
    ...(cookie ? { cookie } : {}),
  },
  body: new URLSearchParams(body),
})

/** A JSON post of a signed-in user, as the account pages send it. */
export const json = (body: unknown, cookie: string): RequestInit => ({
  method: "POST",
  headers: {
    "content-type": "application/json",
    accept: "application/json",
    "sec-fetch-site": "same-origin",
    cookie,
  },
  body: JSON.stringify(body),
})

/** The `error` of a redirect's location (`RateLimited`, `CredentialsSignin`, …), or null. */
export function redirectError(res: Response): string | null {
  return new URL(res.headers.get("location") ?? "", "http://x").searchParams.get("error")
}

/** `authjs.session-token=…` of a response that opened a session. */
export function sessionCookie(res: Response): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))
  if (!line) throw new Error("no session cookie")
  return line.split(";")[0]!
}

/** Whether a response opened a session. */
export const opensSession = (res: Response): boolean =>
  res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))

/** `latchkey.two-factor=…` of a password step that now waits for the second factor. */
export function pendingTwoFactorCookie(res: Response): string {
  const line = res.headers.getSetCookie().find((c) => c.startsWith("latchkey.two-factor="))
  if (!line) throw new Error(`no pending two-factor cookie (status ${res.status})`)
  return line.split(";")[0]!
}

/** One request to instance `a` or `b` of a pair, with the store the instance should use. */
export type SendTo = (
  instance: "a" | "b",
  store: string,
  path: string,
  init?: RequestInit,
) => Promise<Response>

/** Wrong-password attempts on one account, alternating a, b, a, …: how many were RateLimited. */
export async function refusedAcross(send: SendTo, store: string, attempts: number) {
  const email = `ann-${crypto.randomUUID()}@example.com`
  let refused = 0
  for (let i = 0; i < attempts; i++) {
    const res = await send(
      i % 2 ? "b" : "a",
      store,
      "/callback/credentials",
      form({ email, password: "x" }),
    )
    if (redirectError(res) === "RateLimited") refused++
  }
  return refused
}

/** Sign in and out at `a`, reading the session at `b` before and after the sign-out. */
export async function signOutAcross(send: SendTo, store: string, email: string) {
  const signedIn = await send(
    "a",
    store,
    "/callback/credentials",
    form({ email, password: "right" }),
  )
  const cookie = sessionCookie(signedIn)
  const read = async () => (await send("b", store, "/session", { headers: { cookie } })).json()
  const before = (await read()) as { user?: { email?: string } } | null
  await send("a", store, "/signout", form({}, cookie))
  const after = (await read()) as { user?: { email?: string } } | null
  return { before, after }
}

/**
 * Enrols `email` in two-factor at `a`: signed in by password alone (not enrolled yet), then the
 * first code confirms. The TOTP secret. For a pair whose users live in one database, so that
 * `b` sees the enrolment too.
 */
export async function enrolTotpAt(send: SendTo, store: string, email: string): Promise<string> {
  const password = form({ email, password: "right" })
  const cookie = sessionCookie(await send("a", store, "/callback/credentials", password))
  const enrol = await send("a", store, "/two-factor/enroll", json({}, cookie))
  if (enrol.status !== 200) throw new Error(`enroll: ${enrol.status} ${await enrol.text()}`)
  const { secret } = (await enrol.json()) as { secret: string }
  const confirm = await send(
    "a",
    store,
    "/two-factor/confirm",
    json({ code: totpCode(secret) }, cookie),
  )
  if (confirm.status !== 200) throw new Error(`confirm: ${confirm.status} ${await confirm.text()}`)
  return secret
}

/**
 * A password step of `email` (enrolled with `secret`) at each instance, then one code at `a`
 * and the same code at `b`: whether each opened a session, and `b`'s redirect error. Only the
 * store's single-use marker of the code's time step can refuse it at `b`: `b`'s own password
 * step and pending cookie are fresh.
 */
export async function totpReplayAcross(send: SendTo, store: string, email: string, secret: string) {
  const password = form({ email, password: "right" })
  const atA = pendingTwoFactorCookie(await send("a", store, "/callback/credentials", password))
  const atB = pendingTwoFactorCookie(await send("b", store, "/callback/credentials", password))
  // The next step's code (accepted within the ±1 window): an enrolment's confirm may have spent
  // the current one.
  const code = totpCode(secret, Date.now() + 30_000)
  const first = await send("a", store, "/two-factor/verify", form({ code }, atA))
  const replay = await send("b", store, "/two-factor/verify", form({ code }, atB))
  return {
    accepted: opensSession(first),
    replayAccepted: opensSession(replay),
    replayError: redirectError(replay),
  }
}
