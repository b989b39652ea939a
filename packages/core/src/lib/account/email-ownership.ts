/**
 * Who owns an email address nobody has proved yet: one rule for every first factor.
 *
 * A user row whose `emailVerified` is empty was created by something that did not prove the
 * mailbox: a passkey registered for an address, an OAuth/OIDC profile whose email the provider
 * does not vouch for, the app's own sign-up, or Auth.js (which never sets it for OAuth users).
 * Anybody can create such a row for somebody else's address ("account pre-hijacking",
 * Sudhodanan & Paverd 2022). The rule:
 *
 * - Nothing joins a row by its email unless the row's own email was proved: a proof of the
 *   address made elsewhere (an email link, a provider that reports the email verified) is
 *   refused with a typed error (`AccountNotLinked` for an email link, `OAuthAccountNotLinked`
 *   for a provider, even with `allowDangerousEmailAccountLinking`), and the row is left as it
 *   is: neither marked verified nor given the prover's session or account.
 * - A proof that comes from the row itself — the browser is signed in as that row, or the
 *   OAuth account is already linked to it — is the owner confirming their own address: the row
 *   is marked verified, and from then on the address is proven.
 * - Factors that do not prove the mailbox (passkey registration, unverified OAuth emails) never
 *   join an existing row by its email, proven or not.
 *
 * Why refuse rather than let the first proof claim the row (delete it with its credentials,
 * then start the prover afresh): the row cannot tell an attacker's placeholder from a real
 * account. Users of the app's own password sign-up, and every user an Auth.js database holds,
 * have an empty `emailVerified` too; a claim would delete their account and its data the first
 * time they used an email link or a provider (or anyone did whose provider vouches for that
 * address), and it could not remove an app-managed password anyway. Refusing leaves every
 * account intact, never hands the prover a row someone else could have set up, and tells the
 * person what to do (sign in the way the account was created, then confirm the address).
 */
import type { AdapterUser } from "../../adapters.js"
import { isDate } from "../../adapters.js"
import type { RequestContext } from "../context.js"
import { emitEvent } from "../events.js"

/** Whether the row's email was proved (by an email link or a provider that vouches for it). */
export function isEmailProven(user: { readonly emailVerified?: Date | null }): boolean {
  return isDate(user.emailVerified)
}

/** What a proof of `email` meets. */
export type OwnershipOutcome =
  /** No row has this email: the sign-in may create one, with the email verified. */
  | { readonly kind: "none" }
  /** The row's email is proven: it is the owner's. */
  | { readonly kind: "owned"; readonly user: AdapterUser }
  /** The row is unproven, but the proof comes from the row itself: it is (now) verified. */
  | { readonly kind: "verify-own"; readonly user: AdapterUser }
  /** The row is unproven and the proof comes from elsewhere: nothing may join it. */
  | { readonly kind: "unproven"; readonly user: AdapterUser }

export interface OwnershipInput {
  /** The row with the proven email (`getUserByEmail`), if any. */
  readonly row: AdapterUser | null
  /** The row the proof comes from: the signed-in user, or the user the OAuth account is linked to. */
  readonly provenFrom: AdapterUser | null
}

/** The decision alone, without I/O. */
export function decideOwnership({ row, provenFrom }: OwnershipInput): OwnershipOutcome {
  if (!row) return { kind: "none" }
  if (isEmailProven(row)) return { kind: "owned", user: row }
  if (provenFrom && provenFrom.id === row.id) return { kind: "verify-own", user: row }
  return { kind: "unproven", user: row }
}

/**
 * Applies a proof of `email`: looks the row up, decides, and for a proof from the row itself
 * marks it verified. The caller refuses an `unproven` outcome with its own error type.
 */
export async function proveEmail(
  ctx: RequestContext,
  email: string,
  provenFrom: AdapterUser | null,
): Promise<OwnershipOutcome> {
  const row = await ctx.config.adapter!.getUserByEmail!(email)
  const outcome = decideOwnership({ row, provenFrom })
  if (outcome.kind !== "verify-own") return outcome
  ctx.logger.debug("email confirmed from its own account")
  return { kind: "verify-own", user: await markVerified(ctx, outcome.user) }
}

/** Sets `emailVerified` to now and fires `updateUser`. */
export async function markVerified(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await ctx.config.adapter!.updateUser!({ id: user.id, emailVerified: new Date() })
  await emitEvent(ctx.config.events, ctx.logger, "updateUser", { user: updated })
  return updated
}
