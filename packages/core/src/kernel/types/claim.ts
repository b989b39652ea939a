/** The shapes of an address claim (`claim.ts`), apart so `types.ts` can name them in events. */
import type { AdapterUser } from "./adapters.js"

/** What proved the address. */
export type ClaimProof =
  /** An email sign-in link. */
  | "email-link"
  /** A password sign-up's verification link. */
  | "verification-link"
  /** A password reset link. */
  | "reset-link"
  /** An identity provider that vouches for the email. */
  | "provider"

export interface ClaimVia {
  readonly proof: ClaimProof
  /** The id of the provider whose proof it was (the email provider's, the OAuth provider's). */
  readonly provider: string
}

/** What a claim removed from the row. Counts and provider ids only: never a secret. */
export interface ClaimRemoved {
  /** Passkeys deleted. */
  readonly passkeys: number
  /** Provider ids of the linked accounts unlinked (one per account, passkey accounts included). */
  readonly accounts: readonly string[]
  /** Whether a Latchkey-managed password was deleted. */
  readonly password: boolean
  /** Whether a two-factor enrollment (and its recovery codes) was deleted. */
  readonly twoFactor: boolean
  /**
   * Whether every session signed in before the claim was ended. `false` only with JWT sessions
   * and `session.revocation: "off"`, where nothing can end a JWT before it expires.
   */
  readonly sessions: boolean
}

/** The `accountClaimed` event's message. */
export interface AccountClaimedMessage {
  /** The row after the claim: same id, address now proven. */
  readonly user: AdapterUser
  readonly via: ClaimVia
  readonly removed: ClaimRemoved
}
