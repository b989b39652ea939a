/**
 * Which user an OAuth (or WebAuthn) sign-in belongs to, as a pure decision over what the adapter returned.
 * The core does the I/O (`getUserByAccount`, the signed-in user, `getUserByEmail`) and then
 * acts on the outcome (create, link, issue a session).
 *
 * Differences from Auth.js: email-based linking needs `allowDangerousEmailAccountLinking`, an
 * email the provider reports as verified AND a row whose own email was proved (ASVS 10.5.x: otherwise anyone who can register
 * `victim@example.com` at some provider takes over the victim's account).
 */
import { isEmailProven } from "../account/email-ownership.js"

/** The minimum of a user the decision needs. */
export interface LinkingUser {
  id: string
  /** Set once the row's own email was proved (email link, a provider that vouches for it). */
  emailVerified?: Date | null
}

export interface AccountLinkingInput<U extends LinkingUser = LinkingUser> {
  /** `getUserByAccount({ provider, providerAccountId })`: who already has this account. */
  readonly accountUser: U | null
  /** The user of the current session, if any. */
  readonly signedInUser: U | null
  /** `getUserByEmail(email)` for the provider's email (`null` when there is no email). */
  readonly userWithSameEmail: U | null
  readonly allowDangerousEmailAccountLinking: boolean
  /** Whether the provider vouches for the email (`email_verified`, GitHub primary+verified). */
  readonly emailVerified: boolean
}

export type AccountLinkingOutcome<U extends LinkingUser = LinkingUser> =
  /** The account is known: sign its user in (a session of that user is kept as is). */
  | { readonly kind: "sign-in-existing"; readonly user: U; readonly keepSession: boolean }
  /** A signed-in user adds this provider: `linkAccount` to them, keep the session. */
  | { readonly kind: "link-to-current"; readonly user: U }
  /** No such account, the verified email matches a user and linking by email is allowed. */
  | { readonly kind: "link-by-email"; readonly user: U }
  /** Nobody has this account or email: `createUser`, then `linkAccount`. */
  | { readonly kind: "create" }
  /** Refuse with `OAuthAccountNotLinked`. */
  | {
      readonly kind: "error-not-linked"
      readonly reason: "account-of-other-user" | "email-in-use" | "email-not-verified"
    }

export function decideAccountLinking<U extends LinkingUser>(
  input: AccountLinkingInput<U>,
): AccountLinkingOutcome<U> {
  const { accountUser, signedInUser, userWithSameEmail } = input
  if (accountUser) {
    if (signedInUser && signedInUser.id !== accountUser.id) {
      // Linking it to the current user would steal it from its owner.
      return { kind: "error-not-linked", reason: "account-of-other-user" }
    }
    return { kind: "sign-in-existing", user: accountUser, keepSession: signedInUser !== null }
  }
  if (signedInUser) return { kind: "link-to-current", user: signedInUser }
  if (!userWithSameEmail) return { kind: "create" }
  if (!input.allowDangerousEmailAccountLinking) {
    return { kind: "error-not-linked", reason: "email-in-use" }
  }
  if (!input.emailVerified) return { kind: "error-not-linked", reason: "email-not-verified" }
  // The row's own email must be proved too (Better Auth CVE-2026-53516): an unproven row may
  // have been set up by anyone; only a proof from the row itself confirms it
  // (kernel/account/email-ownership.ts).
  if (!isEmailProven(userWithSameEmail)) {
    return { kind: "error-not-linked", reason: "email-not-verified" }
  }
  return { kind: "link-by-email", user: userWithSameEmail }
}
