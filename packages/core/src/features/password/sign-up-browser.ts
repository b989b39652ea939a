/**
 * The browser that signed up (docs/design/pending-grants.md, "sign-up confirmation proves the
 * mailbox, not the password"). Sign-up leaves a random nonce in an HttpOnly cookie and binds the
 * verification link to its hash (the link's `browser` parameter, covered by the link's MAC).
 * Opened in that browser, the link is the ordinary one-click confirmation; opened anywhere else
 * it is a proof of the mailbox from elsewhere, which must not keep the password somebody else
 * chose for the address: the person sets their own, and the row is claimed.
 */

import { sha256Base64Url } from "../../kernel/crypto/digest.js"
import { randomBase64Url } from "../../kernel/crypto/random.js"
import type { RequestContext } from "../../kernel/http/context.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"

const BASE_NAME = "latchkey.sign-up"

function cookieName(ctx: Pick<RequestContext, "secureCookies">): string {
  return `${ctx.secureCookies ? "__Secure-" : ""}${BASE_NAME}`
}

/** A new nonce for this browser: the cookie to set and the hash a link is bound to. */
export async function markSignUpBrowser(
  ctx: Pick<RequestContext, "secureCookies" | "cookies">,
  maxAgeSeconds: number,
): Promise<{ cookie: ResponseCookie; browser: string }> {
  const nonce = randomBase64Url(32)
  const { sameSite, path } = ctx.cookies.sessionToken.options
  return {
    cookie: {
      name: cookieName(ctx),
      value: nonce,
      options: {
        httpOnly: true,
        sameSite: sameSite ?? "lax",
        path: path ?? "/",
        secure: ctx.secureCookies,
        maxAge: maxAgeSeconds,
      },
    },
    browser: await sha256Base64Url(nonce),
  }
}

/** The hash this browser's nonce would bind a link to; `undefined` when it never signed up here. */
export async function signUpBrowserOf(
  ctx: Pick<RequestContext, "secureCookies" | "parsed">,
): Promise<string | undefined> {
  const nonce = ctx.parsed.cookies[cookieName(ctx)]
  if (typeof nonce !== "string" || nonce === "" || nonce.length > 128) return undefined
  return sha256Base64Url(nonce)
}
