/**
 * Where two-factor sign-in joins the ordinary one: after the first factor, decide whether a
 * code is due (enabled), an enrollment is due (required, not enrolled) or nothing (then the
 * session is issued at once).
 */

import type { RequestContext } from "../../kernel/context.js"
import type { ProviderConfig } from "../../providers/index.js"
import type { User } from "../../types.js"
import { isEnabledFor, isRequiredFor, twoFactorContext } from "./service.js"

/** The `amr` (RFC 8176) of a first factor, by provider kind. */
export function firstFactorAmr(provider: Pick<ProviderConfig, "type">): string[] {
  switch (provider.type) {
    case "credentials":
      return ["pwd"]
    case "email":
      return ["email"]
    case "webauthn":
      return ["hwk"]
    default:
      return ["fed"]
  }
}

/** Whether the factors proven so far are several: a passkey with user verification counts alone. */
export function satisfiesMfa(amr: readonly string[]): boolean {
  return amr.includes("mfa") || (amr.includes("hwk") && amr.includes("user"))
}

/** The `amr` of a sign-in completed with a second factor. */
export function withSecondFactor(first: readonly string[]): string[] {
  return [...new Set([...first, "otp", "mfa"])]
}

/** What the first factor leads to: a code, an enrollment, or the session at once. */
export async function secondFactorDue(
  ctx: RequestContext,
  user: User,
  amr: readonly string[],
): Promise<"verify" | "enroll" | undefined> {
  if (!ctx.config.twoFactor || satisfiesMfa(amr) || typeof user.id !== "string") return undefined
  const tctx = twoFactorContext(ctx.config)
  if (await isEnabledFor(tctx, user.id)) return "verify"
  const policyUser = { ...user, id: user.id }
  return (await isRequiredFor(tctx.twoFactor, policyUser)) ? "enroll" : undefined
}
