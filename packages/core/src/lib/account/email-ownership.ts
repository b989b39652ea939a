/**
 * Who owns an email address nobody has proved yet: one rule for every first factor.
 *
 * A user row whose `emailVerified` is empty was created by a factor that does not prove the
 * mailbox: a passkey registered for an address, an OAuth/OIDC profile whose email the provider
 * does not vouch for. Anybody can create such a row for somebody else's address ("account
 * pre-hijacking", Sudhodanan & Paverd 2022). The rule:
 *
 * - A factor that does not prove the email never joins an existing row by that email (passkey
 *   registration for a known address and unverified OAuth emails are refused), and never
 *   links to an unproven row, even with `allowDangerousEmailAccountLinking`.
 * - The first proof of the email (an email link, an OAuth/OIDC profile whose email the
 *   provider reports verified) **claims** an unproven row: the row is deleted with every
 *   credential, linked account and session that hangs on it, the user's JWT sessions are
 *   revoked, `events.claimEmail` fires, and the prover gets a fresh row with the email
 *   verified. The owner gets in; whatever the earlier party set up is gone.
 * - Except when the proof comes from the row itself: the browser is signed in as that row, or
 *   the OAuth account is already linked to it. That is the owner verifying their own account
 *   (the earlier party could not have produced this proof), so the row is kept and marked
 *   verified.
 *
 * Why claim rather than refuse: refusing the merge leaves the owner locked out of their own
 * address by whoever registered it first, and the only remedy is support. Claiming costs the
 * legitimate-but-unverified user their passkeys and links (they prove the email and add them
 * again); it costs an attacker everything, which is the point.
 */
import type { AdapterUser } from "../../adapters.js"
import { isDate } from "../../adapters.js"
import { AccountNotLinked } from "../../errors.js"
import type { RequestContext } from "../context.js"
import { emitEvent } from "../events.js"
import { revocationBackend } from "../revocation/index.js"

/** Whether the row's email was proved (by an email link or a provider that vouches for it). */
export function isEmailProven(user: Pick<AdapterUser, "emailVerified">): boolean {
  return isDate(user.emailVerified)
}

/** What a proof of `email` does to the row that already has that address. */
export type OwnershipOutcome =
  /** No row has this email: create one, with the email verified. */
  | { readonly kind: "none" }
  /** The row is already proven: it is the owner's. */
  | { readonly kind: "owned"; readonly user: AdapterUser }
  /** The row is unproven, but the proof comes from the row itself: mark it verified. */
  | { readonly kind: "verify-own"; readonly user: AdapterUser }
  /** The row is unproven and the proof comes from elsewhere: the prover claims the address. */
  | { readonly kind: "claim"; readonly stale: AdapterUser }

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
  return { kind: "claim", stale: row }
}

/** Same address, whatever the case: providers and adapters do not all lower-case. */
export function sameEmail(a: string | null | undefined, b: string | null | undefined): boolean {
  return (
    typeof a === "string" &&
    typeof b === "string" &&
    a !== "" &&
    a.toLowerCase() === b.toLowerCase()
  )
}

/**
 * Applies a proof of `email` by `provider`: claims an unproven row (see the module comment) or
 * marks the own row verified. Returns the row the sign-in continues with and whether this
 * call verified it, or `null` when the sign-in must create one (no row, or it was claimed).
 */
export async function proveEmail(
  ctx: RequestContext,
  email: string,
  provider: string,
  provenFrom: AdapterUser | null,
): Promise<{ user: AdapterUser; verifiedNow: boolean } | null> {
  const adapter = ctx.config.adapter!
  const row = await adapter.getUserByEmail!(email)
  const outcome = decideOwnership({ row, provenFrom })
  switch (outcome.kind) {
    case "none":
      return null
    case "owned":
      return { user: outcome.user, verifiedNow: false }
    case "verify-own":
      return { user: await markVerified(ctx, outcome.user), verifiedNow: true }
    case "claim":
      await claim(ctx, outcome.stale, provider)
      return null
  }
}

/** Sets `emailVerified` to now and fires `updateUser`. */
export async function markVerified(ctx: RequestContext, user: AdapterUser): Promise<AdapterUser> {
  const updated = await ctx.config.adapter!.updateUser!({ id: user.id, emailVerified: new Date() })
  await emitEvent(ctx.config.events, ctx.logger, "updateUser", { user: updated })
  return updated
}

/**
 * Removes an unproven row and everything that opens it: its JWT sessions are revoked (user
 * session version), and deleting the row deletes its accounts, authenticators and database
 * sessions (the adapters cascade, as Auth.js's do).
 */
async function claim(ctx: RequestContext, stale: AdapterUser, provider: string): Promise<void> {
  const adapter = ctx.config.adapter!
  if (!adapter.deleteUser) {
    // Without deleteUser the earlier party's ways in cannot be removed: refuse rather than merge.
    throw new AccountNotLinked(
      "This email belongs to an account whose address was never confirmed, and the adapter has no deleteUser() to remove it",
      { details: { provider, reason: "unproven-account-not-removable" } },
    )
  }
  await revocationBackend(ctx.config).revokeUserSessions(stale.id)
  await adapter.deleteUser(stale.id)
  ctx.logger.debug("unproven account claimed by a proof of its email", { provider })
  await emitEvent(ctx.config.events, ctx.logger, "claimEmail", { removedUser: stale, provider })
}
