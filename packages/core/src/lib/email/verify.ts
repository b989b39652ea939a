/**
 * Second half of email sign-in, for `POST /callback/<email provider>` (the confirm page's
 * button, after the CSRF check): consume the token and say who signed in. The core then runs
 * its common sign-in path (signIn callback, create/update user, session, events).
 *
 * Every way a link can be bad (unknown, used, expired, tampered, for another address) is one
 * `Verification` error: the person's next step is the same (request a new link), and an
 * attacker learns nothing about which check failed.
 */
import type { Adapter, AdapterUser } from "../../adapters.js"
import { MissingAdapterMethods, Verification } from "../../errors.js"
import type { Store } from "../rate-limit/store.js"
import type { Account } from "../types/records.js"
import type { EmailConfig } from "./config.js"
import { MAX_EMAIL_LENGTH } from "./normalize-identifier.js"
import { emailSecrets } from "./secrets.js"
import { hashVerificationToken, storedTokenEquals } from "./verification-token.js"

/** Longest token accepted from a request (the default one has 43 characters). */
export const MAX_TOKEN_LENGTH = 512

export interface VerifyEmailSignInParams {
  provider: EmailConfig
  adapter: Adapter | undefined
  /** `config.secret`; the provider's own `secret` wins. Each one is tried (rotation). */
  secret: string | readonly string[] | undefined
  /** The `token` field of the POST body. */
  token: unknown
  /** The `email` field of the POST body. */
  email: unknown
  /** `config.store`: remembers used links (see `rememberUse`). */
  store?: Store | undefined
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
  const { token, email } = params
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH) {
    throw invalid("malformed-token")
  }
  if (typeof email !== "string" || email === "" || email.length > MAX_EMAIL_LENGTH) {
    throw invalid("malformed-email")
  }

  // Newest secret first: that is the one current links are signed with, so usually one lookup.
  let stored: Awaited<ReturnType<NonNullable<Adapter["useVerificationToken"]>>> = null
  let expected = ""
  for (const secret of secrets) {
    expected = await hashVerificationToken(token, secret)
    stored = await adapter.useVerificationToken({ identifier: email, token: expected })
    if (stored) break
  }
  if (!stored) throw invalid("unknown-or-used")
  // The adapter looked the row up by these values; checking again guards against an adapter
  // that matches loosely (case-insensitive collation, trimming, a prefix index).
  if (!storedTokenEquals(String(stored.token), expected) || stored.identifier !== email) {
    throw invalid("mismatch")
  }
  const expires = new Date(stored.expires)
  const now = new Date()
  if (Number.isNaN(expires.getTime()) || expires.getTime() <= now.getTime()) {
    throw invalid("expired")
  }
  await rememberUse(params.store, expected, expires.getTime() - now.getTime())

  const existing = await adapter.getUserByEmail(stored.identifier)
  const user: AdapterUser = existing ?? {
    id: crypto.randomUUID(),
    email: stored.identifier,
    emailVerified: now,
  }
  return {
    user,
    account: {
      provider: provider.id,
      type: "email",
      providerAccountId: stored.identifier,
      userId: user.id,
    },
    isNewUser: existing === null || existing === undefined,
    emailVerified: now,
  }
}

/**
 * A second line behind `useVerificationToken`'s single use: the link's hash is remembered in
 * the store until the link would expire, so an adapter whose lookup-and-delete is not atomic
 * still lets two concurrent redemptions (on two instances, say) produce one session at most.
 * A store that cannot answer refuses the link (fail closed); the person asks for a new one.
 */
async function rememberUse(store: Store | undefined, hash: string, ttlMs: number): Promise<void> {
  if (!store) return
  let fresh: boolean
  try {
    fresh = await store.consumeOnce(`email-link:${hash}`, Math.max(1000, ttlMs))
  } catch (cause) {
    throw new Verification("The sign-in link could not be checked (store unavailable)", {
      cause,
      details: { reason: "store-unavailable" },
    })
  }
  if (!fresh) throw invalid("replayed")
}

function invalid(reason: string): Verification {
  return new Verification("The sign-in link is invalid, expired or already used", {
    details: { reason },
  })
}
