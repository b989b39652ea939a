/**
 * `GET` (and `HEAD`) `/callback/<email provider>?token=…&email=…&callbackUrl=…`: the link from
 * the mail. It never touches the token store; it renders a page whose button POSTs the same
 * values (plus the CSRF token) to the same path, and only that POST signs in
 * (pain point 7: links pre-opened by mail scanners stay valid).
 */

import { Verification } from "../../kernel/errors/errors.js"
import { MAX_EMAIL_LENGTH } from "../../kernel/mail/address.js"
import type { PageResponse } from "../../kernel/pages/layout.js"
import type { Theme } from "../../kernel/types/pages.js"
import { renderEmailConfirmPage } from "./confirm-page.js"
import { MAX_TOKEN_LENGTH } from "./verify.js"

export interface EmailConfirmationParams {
  /** `<origin><basePath>/callback/<id>` (no query): the form posts here. */
  actionUrl: string
  /** Query `token`. */
  token: unknown
  /** Query `email`. */
  email: unknown
  /** Query `callbackUrl` (validated by the core again when the form is posted). */
  callbackUrl?: unknown
  /** The CSRF token for the form (empty when the framework checks CSRF itself). */
  csrfToken: string
  theme: Theme
}

export interface EmailConfirmation extends PageResponse {
  /**
   * Headers the response needs: the URL carries a live token, so no `Referer` may leak it and
   * no cache may keep the page.
   */
  headers: Record<string, string>
}

/** Throws `Verification` when the link lacks a usable token or email (→ error page, 403). */
export function renderEmailConfirmation(params: EmailConfirmationParams): EmailConfirmation {
  const { token, email, callbackUrl } = params
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH) {
    throw new Verification("The sign-in link has no valid token", {
      details: { reason: "malformed-token" },
    })
  }
  if (typeof email !== "string" || email === "" || email.length > MAX_EMAIL_LENGTH) {
    throw new Verification("The sign-in link has no valid email", {
      details: { reason: "malformed-email" },
    })
  }
  const page = renderEmailConfirmPage({
    actionUrl: params.actionUrl,
    token,
    email,
    callbackUrl: typeof callbackUrl === "string" ? callbackUrl : undefined,
    csrfToken: params.csrfToken,
    theme: params.theme,
  })
  return {
    ...page,
    headers: {
      "Referrer-Policy": "strict-origin",
      "Cache-Control": "private, no-cache, no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  }
}
