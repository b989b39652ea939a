/** URLs and link keys of the password flows, shared by the actions and the account changes. */

import { linkGrantKeys } from "../../kernel/grants/link.js"
import { emailSecrets } from "../../kernel/grants/link-secrets.js"
import { actionUrl, type RequestContext } from "../../kernel/http/context.js"
import type { PasswordConfig } from "./config.js"
import type { LinkKeys } from "./links.js"

export const PASSWORD_OPS = [
  "signup",
  "resend",
  "forgot",
  "reset",
  "verify",
  "email-change",
  "sent",
] as const

export type PasswordOp = (typeof PASSWORD_OPS)[number]

/** `<origin><basePath>/password/<op>?<params>`: a link for a mail or a redirect. */
export function passwordUrl(
  ctx: Pick<RequestContext, "origin" | "config">,
  op: PasswordOp,
  params: Record<string, string> = {},
): string {
  const url = new URL(actionUrl(ctx, "password", op))
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}

export function linkKeys(ctx: RequestContext, provider: PasswordConfig): LinkKeys {
  const secrets = emailSecrets(
    { id: provider.id, secret: provider.passwordAccount.secret },
    ctx.config.secret,
  )
  return linkGrantKeys(ctx.config, secrets)
}

const CUSTOM_PAGES = {
  signup: "signUp",
  forgot: "forgotPassword",
  reset: "resetPassword",
  sent: "passwordSent",
} as const

/**
 * The page for `op`: the app's own (`pages.signUp`, `forgotPassword`, `resetPassword`,
 * `passwordSent`) with `params` in its query, else the built-in one; `undefined` when the app
 * has none for it.
 */
export function customPasswordPage(
  ctx: Pick<RequestContext, "origin" | "config">,
  op: PasswordOp,
  params: Record<string, string> = {},
): string | undefined {
  const key = (CUSTOM_PAGES as Record<string, keyof typeof ctx.config.pages>)[op]
  const custom = key === undefined ? undefined : ctx.config.pages[key]
  if (custom === undefined) return undefined
  const url = new URL(custom, ctx.origin)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

/** The page for `op` (the app's own, else the built-in one), for links and redirects. */
export function passwordPageUrl(
  ctx: Pick<RequestContext, "origin" | "config">,
  op: PasswordOp,
  params: Record<string, string> = {},
): string {
  return customPasswordPage(ctx, op, params) ?? passwordUrl(ctx, op, params)
}
