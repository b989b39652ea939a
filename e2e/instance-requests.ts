/**
 * Plain-HTTP requests to an `Auth()` app, shared by the two-instance tests (workerd:
 * store-durable-object/test/two-instances.test.ts; Vercel Edge:
 * store-upstash/test/edge-instances.test.ts).
 */

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
