/** The cookies Latchkey writes: their options, and one cookie to send. */

/** Options of one cookie, as written in `Set-Cookie`. */
export interface CookieOption {
  name: string
  options: {
    httpOnly?: boolean
    sameSite?: "lax" | "strict" | "none"
    path?: string
    secure?: boolean
    domain?: string
    maxAge?: number
    expires?: Date
    partitioned?: boolean
    priority?: "low" | "medium" | "high"
  }
}

/**
 * One cookie to send: what `getSession` returns for a framework binding to set, and what
 * `Auth()` serializes into one `Set-Cookie` header each. A deletion has `value: ""` and
 * `maxAge: 0`.
 */
export interface ResponseCookie {
  name: string
  value: string
  options: CookieOption["options"]
}

/** The cookies Latchkey writes. */
export interface CookiesOptions {
  sessionToken: CookieOption
  callbackUrl: CookieOption
  csrfToken: CookieOption
  pkceCodeVerifier: CookieOption
  state: CookieOption
  nonce: CookieOption
  webauthnChallenge: CookieOption
}

/** Partial cookie overrides: each field merges over the default. */
export type PartialCookiesOptions = {
  [K in keyof CookiesOptions]?: {
    name?: string
    options?: Partial<CookieOption["options"]>
  }
}
