/**
 * Second half of email sign-in, for `POST /callback/<email provider>` (the confirm page's
 * button, after the CSRF check): consume the token and say who signed in. The core then runs
 * its common sign-in path (signIn callback, create/update user, session, events).
 *
 * Every way a link can be bad (unknown, used, expired, tampered, for another address) is one
 * `Verification` error: the person's next step is the same (request a new link), and an
 * attacker learns nothing about which check failed.
 */

import { MissingAdapterMethods, Verification } from "../../kernel/errors/errors.js"
import { MAX_LINK_TOKEN_LENGTH, redeemLinkGrant } from "../../kernel/grants/link.js"
import { emailSecrets } from "../../kernel/grants/link-secrets.js"
import { MAX_EMAIL_LENGTH } from "../../kernel/mail/address.js"
import type { Adapter, AdapterUser } from "../../kernel/types/adapters.js"
import type { Account } from "../../kernel/types/records.js"
import type { Store } from "../../kernel/types/store.js"
import type { EmailConfig } from "./config.js"

/** Longest token accepted from a request (the default one has 43 characters). */
export const MAX_TOKEN_LENGTH = MAX_LINK_TOKEN_LENGTH

export interface VerifyEmailSignInParams {
  provider: EmailConfig
  adapter: Adapter | undefined
  /** `config.secret`; the provider's own `secret` wins. Each one is tried (rotation). */
  secret: string | readonly string[] | undefined
  /** The `token` field of the POST body. */
  token: unknown
  /** The `email` field of the POST body. */
  email: unknown
  /** `config.store`: remembers used links, a second guard behind `useVerificationToken`. */
  store?: Store | undefined
  /** The account's state stamp (`accountStamp`): the link is void once it moved. */
  stampOf(userId: string): Promise<number>
}
export interface VerifyEmailSignInResult {
  /**
   * The stored user with this email, or (`isNewUser`) a new one to create, with a fresh id
   * and `emailVerified` already set.
   */
  user: AdapterUser
  /** `{ provider, type: "email", providerAccountId: <email>, userId }`. Not stored (as Auth.js). */
  account: Account & { type: "email" }
  isNewUser: boolean
  /** When the address was proven: set it as `emailVerified` on an existing user. */
  emailVerified: Date
}

/**
 * Consumes the link's token (single use: `useVerificationToken` deletes it, whatever the
 * outcome below). Throws `Verification` for any bad link, `MissingSecret` /
 * `MissingAdapterMethods` for configuration problems; adapter errors pass through.
 */
export async function verifyEmailSignIn(
  params: VerifyEmailSignInParams,
): Promise<VerifyEmailSignInResult> {
  const { provider, adapter } = params
  if (!adapter?.useVerificationToken || !adapter.getUserByEmail) {
    throw new MissingAdapterMethods(
      "Email sign-in needs an adapter with createVerificationToken, useVerificationToken and getUserByEmail",
      { details: { provider: provider.id } },
    )
  }
  const secrets = emailSecrets(provider, params.secret)
  const { email, token } = params
  const message = "The sign-in link is invalid, expired or already used"
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH) {
    throw new Verification(message, { details: { reason: "malformed-token" } })
  }
  if (typeof email !== "string" || email === "" || email.length > MAX_EMAIL_LENGTH) {
    throw new Verification(message, { details: { reason: "malformed-email" } })
  }
  // Who holds the address now: the link is bound to that account's state (or to "no account").
  const existing = await adapter.getUserByEmail(email)
  await redeemLinkGrant(
    { secrets, adapter, store: params.store, stampOf: params.stampOf },
    { purpose: "email-sign-in", identifier: email, userId: existing?.id ?? null },
    token,
    message,
  )
  const now = new Date()
  const user: AdapterUser = existing ?? {
    id: crypto.randomUUID(),
    email,
    emailVerified: now,
  }
  return {
    user,
    account: {
      provider: provider.id,
      type: "email",
      providerAccountId: email,
      userId: user.id,
    },
    isNewUser: existing === null || existing === undefined,
    emailVerified: now,
  }
}
