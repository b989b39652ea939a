/**
 * A browser's half of the passkey endpoints, for tests: a cookie jar, `GET webauthn-options`,
 * `POST callback` and `GET session` against an `Auth(request, config)` function, driven by a
 * {@link SoftwareAuthenticator}.
 */
import type { SoftwareAuthenticator } from "./webauthn-authenticator.js"

type AuthFn<C> = (request: Request, config: C) => Promise<Response>

export interface PasskeyClientOptions<C> {
  Auth: AuthFn<C>
  config: C
  origin: string
  basePath?: string
  providerId?: string
}

export interface OptionsAnswer {
  status: number
  body: {
    action?: "register" | "authenticate"
    // biome-ignore lint/suspicious/noExplicitAny: the options JSON is read field by field in tests
    options?: any
    error?: { type: string; message: string }
  }
}

export class PasskeyClient<C> {
  readonly cookies = new Map<string, string>()
  constructor(readonly o: PasskeyClientOptions<C>) {}

  private url(path: string) {
    return `${this.o.origin}${this.o.basePath ?? "/auth"}${path}`
  }

  private take(response: Response) {
    for (const raw of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = raw.split(/;\s*/)
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq)
      const value = decodeURIComponent(pair.slice(eq + 1))
      const deleted = value === "" || attributes.some((a) => a.toLowerCase() === "max-age=0")
      if (deleted) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("; ")
  }

  async send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size > 0) headers.set("cookie", this.cookieHeader())
    if (init.method === "POST" && !headers.has("sec-fetch-site")) {
      headers.set("sec-fetch-site", "same-origin")
    }
    return this.take(
      await this.o.Auth(new Request(this.url(path), { ...init, headers }), this.o.config),
    )
  }

  async options(query: Record<string, string> = {}): Promise<OptionsAnswer> {
    const search = new URLSearchParams(query).toString()
    const id = this.o.providerId ?? "passkey"
    const res = await this.send(`/webauthn-options/${id}${search ? `?${search}` : ""}`)
    return { status: res.status, body: (await res.json()) as OptionsAnswer["body"] }
  }

  /** POSTs the credential as Auth.js's client does (form fields, `X-Auth-Return-Redirect`). */
  async callback(action: string, data: unknown, headers: Record<string, string> = {}) {
    const id = this.o.providerId ?? "passkey"
    const res = await this.send(`/callback/${id}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "x-auth-return-redirect": "1",
        ...headers,
      },
      body: new URLSearchParams({
        action,
        data: typeof data === "string" ? data : JSON.stringify(data),
      }).toString(),
    })
    const body = (await res.json()) as { url?: string; error?: { type: string } }
    // Normalised (`http://host` → `http://host/`) so tests compare one spelling.
    return { status: res.status, url: body.url ? new URL(body.url).href : "", body }
  }

  async session(): Promise<{ user?: { email?: string | null; name?: string | null } } | null> {
    const res = await this.send("/session")
    return (await res.json()) as { user?: { email?: string | null } } | null
  }

  /** Options for `register` (by email when signed out), then the authenticator's response. */
  async register(
    key: SoftwareAuthenticator,
    query: Record<string, string>,
    overrides: Partial<Parameters<SoftwareAuthenticator["register"]>[1]> = {},
  ) {
    const answer = await this.options({ action: "register", ...query })
    if (answer.status !== 200) throw new Error(`options: ${JSON.stringify(answer.body)}`)
    const credential = key.register(answer.body.options, { origin: this.o.origin, ...overrides })
    return this.callback("register", credential)
  }

  /** Options for `authenticate`, then the authenticator's assertion. */
  async authenticate(
    key: SoftwareAuthenticator,
    overrides: Partial<Parameters<SoftwareAuthenticator["authenticate"]>[1]> = {},
  ) {
    const answer = await this.options({ action: "authenticate" })
    if (answer.status !== 200) throw new Error(`options: ${JSON.stringify(answer.body)}`)
    const assertion = key.authenticate(answer.body.options, { origin: this.o.origin, ...overrides })
    return this.callback("authenticate", assertion)
  }
}
