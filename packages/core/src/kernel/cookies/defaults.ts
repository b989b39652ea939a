/**
 * Cookie names and options: the Auth.js v5 defaults (so existing sessions survive the switch),
 * with the user's `cookies` overrides merged per field.
 */

import { SESSION_COOKIE_NAME } from "../token/session-cookie-name.js"
import type { CookieOption, CookiesOptions, PartialCookiesOptions } from "../types/cookies.js"

const FIFTEEN_MINUTES = 15 * 60

const baseNames: Record<keyof CookiesOptions, string> = {
  sessionToken: SESSION_COOKIE_NAME,
  callbackUrl: "authjs.callback-url",
  csrfToken: "authjs.csrf-token",
  pkceCodeVerifier: "authjs.pkce.code_verifier",
  state: "authjs.state",
  nonce: "authjs.nonce",
  webauthnChallenge: "authjs.challenge",
}

const extraOptions: Partial<Record<keyof CookiesOptions, Partial<CookieOption["options"]>>> = {
  pkceCodeVerifier: { maxAge: FIFTEEN_MINUTES },
  state: { maxAge: FIFTEEN_MINUTES },
  webauthnChallenge: { maxAge: FIFTEEN_MINUTES },
}

/**
 * The cookies for one scheme. With `secure`, names get `__Secure-` and the CSRF cookie
 * `__Host-` (the browser then refuses it from a sibling subdomain, which is what makes the
 * double-submit token hold). An override that gives the CSRF cookie a `domain` without renaming
 * it gets `__Secure-` instead: browsers silently drop `__Host-` cookies that carry a Domain.
 */
export function buildCookies(
  secure: boolean,
  overrides: PartialCookiesOptions | undefined,
): CookiesOptions {
  const out = {} as CookiesOptions
  for (const key of Object.keys(baseNames) as (keyof CookiesOptions)[]) {
    const override = overrides?.[key]
    const options: CookieOption["options"] = {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure,
      ...extraOptions[key],
      ...override?.options,
    }
    const hostPrefixOk = options.domain === undefined && options.path === "/"
    const prefix = !secure ? "" : key === "csrfToken" && hostPrefixOk ? "__Host-" : "__Secure-"
    out[key] = Object.freeze({
      name: override?.name ?? `${prefix}${baseNames[key]}`,
      options: Object.freeze(options),
    })
  }
  return Object.freeze(out)
}
