/**
 * The single-use links of password accounts (sign-up verification, reset, email change),
 * stored through the adapter's verification tokens: `useVerificationToken` deletes the row it
 * returns in one step (atomic in both the memory and the Postgres adapter), so concurrent uses
 * of one link succeed once; a second guard in the store (`consumeOnce`) covers adapters whose
 * lookup-and-delete is not atomic, as for email sign-in links.
 *
 * Each link is bound to its purpose, its user and the address it was mailed to: the stored
 * identifier is `latchkey-password:<purpose>:<userId>:<email>`, so a reset link cannot verify
 * an address, a link for one user cannot act on another, and a link mailed before an email
 * change is void after it. Only the HMAC of the token is stored (as for email links), and the
 * `:` in the identifier keeps it apart from every email sign-in identifier (the address
 * normaliser refuses `:`).
 */
import type { Adapter } from "../../adapters.js"
import { MissingAdapterMethods, Verification } from "../../errors.js"
import { emailSecrets } from "../email/secrets.js"
import {
  generateVerificationToken,
  hashVerificationToken,
  storedTokenEquals,
} from "../email/verification-token.js"
import { MAX_TOKEN_LENGTH } from "../email/verify.js"
import type { Store } from "../rate-limit/store.js"

export type LinkPurpose = "verify" | "reset" | "email-change"

export interface LinkBinding {
  purpose: LinkPurpose
  userId: string
  /** The address the link is mailed to (the new address for an email change). */
  email: string
}

export interface LinkKeys {
  /** The provider's id and own secret (else the config's). */
  provider: { id: string; secret?: string | string[] | undefined }
  configSecret: string | readonly string[] | undefined
  adapter: Adapter | undefined
  store: Store | undefined
}

function identifierOf({ purpose, userId, email }: LinkBinding): string {
  return `latchkey-password:${purpose}:${userId}:${email}`
}

function verificationMethods(adapter: Adapter | undefined) {
  if (!adapter?.createVerificationToken || !adapter.useVerificationToken) {
    throw new MissingAdapterMethods(
      "Password links need an adapter with createVerificationToken and useVerificationToken",
    )
  }
  return {
    create: adapter.createVerificationToken.bind(adapter),
    use: adapter.useVerificationToken.bind(adapter),
  }
}

/** Stores a new link for `binding`; returns the raw token (for the mail only) and its expiry. */
export async function mintLink(
  keys: LinkKeys,
  binding: LinkBinding,
  maxAgeSeconds: number,
): Promise<{ token: string; expires: Date }> {
  const { create } = verificationMethods(keys.adapter)
  const secrets = emailSecrets(keys.provider, keys.configSecret)
  const token = generateVerificationToken()
  const expires = new Date(Date.now() + maxAgeSeconds * 1000)
  await create({
    identifier: identifierOf(binding),
    token: await hashVerificationToken(token, secrets[0]!),
    expires,
  })
  return { token, expires }
}

/**
 * The MAC a link would be stored under, computed and thrown away: the work an unknown address
 * costs in `forgot`, so it costs what a known one does up to the mail.
 */
export async function macOnly(keys: LinkKeys): Promise<void> {
  const secrets = emailSecrets(keys.provider, keys.configSecret)
  await hashVerificationToken(generateVerificationToken(), secrets[0]!)
}

/**
 * Consumes the link (whatever happens next, it is gone). Throws `Verification` for a link that
 * is malformed, unknown, used, expired or bound to something else: one error for all, so the
 * person's next step is the same and an attacker learns nothing about which check failed.
 */
export async function consumeLink(
  keys: LinkKeys,
  binding: { purpose: LinkPurpose; userId: unknown; email: unknown },
  token: unknown,
): Promise<LinkBinding> {
  const { use } = verificationMethods(keys.adapter)
  const { userId, email } = binding
  if (typeof token !== "string" || token === "" || token.length > MAX_TOKEN_LENGTH) {
    throw invalid("malformed-token")
  }
  if (typeof userId !== "string" || userId === "" || userId.length > 512) {
    throw invalid("malformed-user")
  }
  if (typeof email !== "string" || email === "" || email.length > 320) {
    throw invalid("malformed-email")
  }
  const bound: LinkBinding = { purpose: binding.purpose, userId, email }
  const identifier = identifierOf(bound)
  let stored: Awaited<ReturnType<typeof use>> = null
  let expected = ""
  for (const secret of emailSecrets(keys.provider, keys.configSecret)) {
    expected = await hashVerificationToken(token, secret)
    stored = await use({ identifier, token: expected })
    if (stored) break
  }
  if (!stored) throw invalid("unknown-or-used")
  if (!storedTokenEquals(String(stored.token), expected) || stored.identifier !== identifier) {
    throw invalid("mismatch")
  }
  const expires = new Date(stored.expires).getTime()
  const now = Date.now()
  if (Number.isNaN(expires) || expires <= now) throw invalid("expired")
  if (keys.store) {
    let fresh: boolean
    try {
      fresh = await keys.store.consumeOnce(
        `password-link:${expected}`,
        Math.max(1000, expires - now),
      )
    } catch (cause) {
      throw new Verification("The link could not be checked (store unavailable)", {
        cause,
        details: { reason: "store-unavailable" },
      })
    }
    if (!fresh) throw invalid("replayed")
  }
  return bound
}

function invalid(reason: string): Verification {
  return new Verification("The link is invalid, expired or already used", { details: { reason } })
}
