/**
 * Every kind of grant the core mints: something a person redeems later. The list is the design
 * note's table (docs/design/pending-grants.md) as code; `test/grants/purposes.test.ts` fails when
 * a place in the core mints something that is not listed here, or when a purpose bound to the
 * account's state has no flow showing that a move of the state voids it.
 */

/** How a grant is tied to the account it acts for. */
export type GrantBinding =
  /** The account's state stamp at mint, compared at redemption. */
  | "account-state"
  /** The session that asked for it, which is itself bound to the account's state. */
  | "session"
  /** One sign-in attempt of a signed-out browser: there is no account yet to bind it to. */
  | "attempt"

export interface GrantPurpose {
  /** Where it lives between mint and use. */
  carrier: "mailed link" | "sealed cookie" | "session cookie" | "session row"
  binding: GrantBinding
  /** The modules that mint it (paths under `src`), for the scan of minting sites. */
  mintedIn: readonly string[]
}

export const GRANT_PURPOSES = {
  "email-sign-in": {
    carrier: "mailed link",
    binding: "account-state",
    mintedIn: ["features/email/request.ts"],
  },
  "password-verify": {
    carrier: "mailed link",
    binding: "account-state",
    mintedIn: ["features/password/links.ts"],
  },
  "password-reset": {
    carrier: "mailed link",
    binding: "account-state",
    mintedIn: ["features/password/links.ts"],
  },
  "email-change": {
    carrier: "mailed link",
    binding: "account-state",
    mintedIn: ["features/password/links.ts"],
  },
  "organization-invitation": {
    carrier: "mailed link",
    binding: "account-state",
    mintedIn: ["features/organizations/invitations.ts"],
  },
  "two-factor-step": {
    carrier: "sealed cookie",
    binding: "account-state",
    mintedIn: ["features/two-factor/pending.ts"],
  },
  "jwt-session": {
    carrier: "session cookie",
    binding: "account-state",
    mintedIn: ["kernel/session/issue.ts", "kernel/session/jwt-session.ts"],
  },
  "database-session": {
    carrier: "session row",
    binding: "account-state",
    mintedIn: ["features/adapter/issue-session.ts"],
  },
  "passkey-challenge": {
    carrier: "sealed cookie",
    binding: "session",
    mintedIn: ["features/passkey/challenge-cookie.ts"],
  },
  "oauth-checks": {
    carrier: "sealed cookie",
    binding: "attempt",
    mintedIn: ["features/oauth/checks.ts"],
  },
} as const satisfies Record<string, GrantPurpose>

export type GrantPurposeName = keyof typeof GRANT_PURPOSES

/** The purposes carried by mailed links. */
export type LinkGrantPurpose = {
  [K in GrantPurposeName]: (typeof GRANT_PURPOSES)[K]["carrier"] extends "mailed link" ? K : never
}[GrantPurposeName]
