/** URLs and link keys of the password flows, shared by the actions and the account changes. */
import { actionUrl, type RequestContext } from "../context.js"
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
  ctx: RequestContext,
  op: PasswordOp,
  params: Record<string, string> = {},
): string {
  const url = new URL(actionUrl(ctx, "password", op))
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}

export function linkKeys(ctx: RequestContext, provider: PasswordConfig): LinkKeys {
  return {
    provider: { id: provider.id, secret: provider.passwordAccount.secret },
    configSecret: ctx.config.secret,
    adapter: ctx.config.adapter,
    store: ctx.config.store,
  }
}
