/**
 * What a change to a signed-in user's credentials or settings needs of the session asking for
 * it (adding a passkey, linking a provider account, an account API change): a recent sign-in
 * (the one rule, `recent-auth.ts`, `session.recentAuthMaxAge`), with the second factor when
 * the user has two-factor on. Such a change never changes the session itself: adding a
 * credential proves possession of the credential, not of the account, so it gives the session
 * no new `auth_time` and no new `amr`.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { featuresOf, type SecondFactor } from "../feature/feature.js"
import type { SignedInSession } from "./current-session.js"
import { assertRecentAuth, type RecentAuthPolicy } from "./recent-auth.js"

/** The second factor a change must have been signed in with when two-factor is on. */
export const SECOND_FACTOR = ["mfa"] as const

/** The second factor a configured feature offers (two-factor sign-in), if any. */
export function secondFactorOf(config: ResolvedConfig): SecondFactor | undefined {
  for (const feature of featuresOf(config)) if (feature.secondFactor) return feature.secondFactor
  return undefined
}

/** Whether `userId` has a confirmed second factor (a feature offers one, and the user has it). */
export async function hasSecondFactor(config: ResolvedConfig, userId: string): Promise<boolean> {
  const second = secondFactorOf(config)
  return second !== undefined && (await second.isEnabled(config, userId))
}

/** The recent sign-in a change of `userId`'s account needs. */
export async function stepUpPolicy(
  config: ResolvedConfig,
  userId: string,
): Promise<RecentAuthPolicy> {
  return {
    maxAge: config.session.recentAuthMaxAge,
    ...((await hasSecondFactor(config, userId)) ? { factors: SECOND_FACTOR } : {}),
  }
}

/** Throws `ReauthenticationRequired` (403, `details.reason`) unless `current` may make the change. */
export async function assertStepUp(
  config: ResolvedConfig,
  current: Pick<SignedInSession, "userId" | "facts">,
): Promise<void> {
  assertRecentAuth(current.facts, await stepUpPolicy(config, current.userId))
}
