/**
 * Who owns an email address nobody has proved yet: one rule for every first factor
 * (docs/design/address-ownership.md).
 *
 * A user row whose `emailVerified` is empty was created by something that did not prove the
 * mailbox: a passkey registered for an address, an OAuth/OIDC profile whose email the provider
 * does not vouch for, a password sign-up never confirmed, the app's own sign-up, or Auth.js
 * (which never sets it for OAuth users). Anybody can create such a row for somebody else's
 * address ("account pre-hijacking", Sudhodanan & Paverd 2022). The rule:
 *
 * - Factors that do not prove the mailbox (passkey registration, unverified OAuth emails) never
 *   join an existing row by its email, proven or not.
 * - A proof that comes from the row itself — the browser is signed in as that row, or the
 *   OAuth account is already linked to it — is the owner confirming their own address: the row
 *   is marked verified, nothing is removed.
 * - A proof made elsewhere (an email link, a provider that vouches for the email, a sign-up
 *   verification or reset link) that signs someone in to an unproven row **claims** it
 *   (`claim.ts`): every credential Latchkey manages for the row is removed and every session
 *   ended, the row is marked proven (same user id) and the prover signed in. Nothing the
 *   squatter attached reaches the account any more.
 *
 * Why claim rather than refuse (the rule of the round before): refusing stopped the takeover
 * but let anyone squat any address, since the owner's email link then answered "never
 * confirmed" forever. A claim is safe because only a real proof of the mailbox makes one, and
 * whoever reads the mailbox could take any account of that address through a reset link
 * anyway; what a claim removes is exactly what someone without the mailbox could have set up.
 * What it cannot remove — a password the app keeps itself (`account.hasCredentials`) — makes
 * it refuse, unless the app handles `events.accountClaimed` and clears its own.
 */

import { emitEvent } from "../events/emit.js"
import type { RequestContext } from "../http/context.js"
import type { AdapterUser } from "../types/adapters.js"
import { isDate } from "../types/adapters.js"

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
  /**
   * The row is unproven and the proof comes from elsewhere: signing the prover in to it claims
   * it (`claimAddress`, which removes what was attached before the proof).
   */
  | { readonly kind: "claim"; readonly user: AdapterUser }

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
  return { kind: "claim", user: row }
}

/**
 * Applies a proof of `email`: looks the row up, decides, and for a proof from the row itself
 * marks it verified. A `claim` outcome is the caller's to act on: it knows whether the proof
 * signs the prover in to that row (then `claimAddress`) or leads somewhere else.
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
