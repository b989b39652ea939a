/**
 * Where two-factor sign-in joins the ordinary one (the feature's `afterFirstFactor`): after the
 * first factor, decide whether a code is due (enabled), an enrollment is due (required, not
 * enrolled) or nothing (then the kernel issues the session at once); when one is due, no
 * session yet, only the sealed pending state, then the code page.
 */

import type { VerifiedSignIn } from "../../kernel/feature/feature.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import { type Outcome, redirect } from "../../kernel/http/outcome.js"
import {
  defaultTokenOf,
  endPreviousSession,
  runJwtCallback,
} from "../../kernel/sign-in/complete-sign-in.js"
import type { JWT } from "../../kernel/token/jwt.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import type { User } from "../../kernel/types/records.js"
import { sealPending } from "./pending.js"
import { isEnabledFor, isRequiredFor, twoFactorContext } from "./service.js"
import { twoFactorPageUrl } from "./urls.js"

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
  if (satisfiesMfa(amr) || typeof user.id !== "string") return undefined
  const tctx = twoFactorContext(ctx.config)
  if (await isEnabledFor(tctx, user.id)) return "verify"
  const policyUser = { ...user, id: user.id }
  return (await isRequiredFor(tctx.twoFactor, policyUser)) ? "enroll" : undefined
}

/** The feature's `afterFirstFactor`: the second-factor step when one is due. */
export async function afterFirstFactor(
  ctx: RequestContext,
  provider: ProviderConfig,
  signIn: VerifiedSignIn,
): Promise<Outcome | undefined> {
  const step = await secondFactorDue(ctx, signIn.user, signIn.amr)
  return step === undefined ? undefined : startSecondFactor(ctx, provider, signIn, step)
}

/**
 * The first factor passed and a second is due: no session yet, only the sealed pending state
 * (the request's previous session ends here, as any new sign-in replaces it), then the code page.
 * JWT sessions run the `jwt` callback now, while `account` and `profile` are at hand.
 */
async function startSecondFactor(
  ctx: RequestContext,
  provider: ProviderConfig,
  signIn: VerifiedSignIn,
  step: "verify" | "enroll",
): Promise<Outcome> {
  let tok: JWT | undefined
  if (ctx.config.session.strategy === "jwt") {
    const token = await runJwtCallback(ctx, signIn, defaultTokenOf(signIn.user))
    if (token === null || token === undefined) {
      ctx.logger.debug("jwt callback returned null: no session")
      return redirect(signIn.callbackUrl)
    }
    tok = token
  }
  await endPreviousSession(ctx)
  const { account } = signIn
  addCookies(
    ctx,
    await sealPending(ctx, {
      uid: signIn.user.id!,
      step,
      amr: signIn.amr,
      cb: signIn.callbackUrl,
      pid: provider.id,
      ...(signIn.isNewUser ? { nu: true } : {}),
      ...(tok ? { tok } : {}),
      ...(account
        ? {
            acct: {
              provider: account.provider,
              type: account.type,
              providerAccountId: account.providerAccountId,
            },
          }
        : {}),
    }),
  )
  ctx.logger.debug("second factor pending", { provider: provider.id, step })
  return redirect(twoFactorPageUrl(ctx))
}
