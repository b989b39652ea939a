/**
 * Mailed links as grants (docs/design/pending-grants.md): every single-use link the core mails
 * (an email sign-in link, a sign-up verification, a reset, an address change) is minted and
 * redeemed here, and nowhere else.
 *
 * The raw token travels only in the mail. The database stores
 * `HMAC(key, token ‖ purpose ‖ account ‖ identifier ‖ account stamp ‖ extra)` under the row id
 * `identifier`. Redeeming recomputes it with the account's stamp of now, so a link minted before
 * the account's state moved (a claim, a reset, a password or address change) finds no row: it
 * is refused exactly as an unknown or used one, and nothing has to be found and deleted.
 *
 * Single use twice over: `useVerificationToken` deletes the row it returns in one step, and the
 * store's `consumeOnce` covers adapters whose lookup-and-delete is not atomic.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { MissingAdapterMethods, Verification } from "../errors/errors.js"
import { accountStamp } from "../revocation/stamp.js"
import type { Adapter } from "../types/adapters.js"
import type { Store } from "../types/store.js"
import {
  generateVerificationToken,
  hashVerificationToken,
  storedTokenEquals,
} from "./link-token.js"
import type { LinkGrantPurpose } from "./purposes.js"

/** Longest token accepted from a request (the default one has 43 characters). */
export const MAX_LINK_TOKEN_LENGTH = 512

export interface LinkGrant {
  purpose: LinkGrantPurpose
  /** The verification-token row id (an address for sign-in links, as Auth.js keeps it). */
  identifier: string
  /**
   * The account the link acts for: its stamp binds the link. `null`: no account holds the
   * address (yet); an account created for it meanwhile voids the link.
   */
  userId: string | null
  /** Anything else the link is bound to (the signing-up browser's nonce hash). */
  extra?: string | undefined
}

export interface LinkGrantKeys {
  /** The secrets the MAC is keyed with, newest first (it signs; each one is tried). */
  secrets: readonly string[]
  adapter: Adapter | undefined
  /** Remembers used links (a second guard behind `useVerificationToken`); the core always has one. */
  store?: Pick<Store, "consumeOnce"> | undefined
  /** The account's stamp now (`accountStamp`). */
  stampOf(userId: string): Promise<number>
}

/** The keys of `config`'s links, MAC'd with `secrets`. */
export function linkGrantKeys(config: ResolvedConfig, secrets: readonly string[]): LinkGrantKeys {
  return {
    secrets,
    adapter: config.adapter,
    store: config.store,
    stampOf: (userId) => accountStamp(config, userId),
  }
}

/** The account's stamp a link for `grant` is bound to now; "none" while no account holds it. */
async function stampFor(keys: LinkGrantKeys, grant: LinkGrant): Promise<number | "none"> {
  return grant.userId === null ? "none" : keys.stampOf(grant.userId)
}

/**
 * The value stored for a link: the MAC of everything it is bound to, NUL-separated (no part
 * can contain a NUL).
 */
export function storedLinkValue(
  token: string,
  grant: LinkGrant,
  stamp: number | "none",
  secret: string,
): Promise<string> {
  const parts = [token, grant.purpose, grant.userId ?? "", grant.identifier, String(stamp)]
  const message = [...parts, grant.extra ?? ""]
    .map((p) => p.replaceAll("\u0000", ""))
    .join("\u0000")
  return hashVerificationToken(message, secret)
}

function storage(adapter: Adapter | undefined) {
  if (!adapter?.createVerificationToken || !adapter.useVerificationToken) {
    throw new MissingAdapterMethods(
      "Mailed links need an adapter with createVerificationToken and useVerificationToken",
    )
  }
  return {
    create: adapter.createVerificationToken.bind(adapter),
    use: adapter.useVerificationToken.bind(adapter),
  }
}

/**
 * Stores a new link for `grant`; returns the raw token (for the mail only) and its expiry.
 * `token`: a token of the provider's own making (Auth.js's `generateVerificationToken`).
 */
export async function mintLinkGrant(
  keys: LinkGrantKeys,
  grant: LinkGrant,
  maxAgeSeconds: number,
  token: string = generateVerificationToken(),
): Promise<{ token: string; expires: Date }> {
  const { create } = storage(keys.adapter)
  const expires = new Date(Date.now() + maxAgeSeconds * 1000)
  await create({
    identifier: grant.identifier,
    token: await storedLinkValue(token, grant, await stampFor(keys, grant), keys.secrets[0]!),
    expires,
  })
  return { token, expires }
}

/**
 * Consumes the link (whatever happens next, it is gone). Throws `Verification` (`message`) for
 * a link that is malformed, unknown, used, expired, bound to something else, or minted before
 * the account's state moved: one error for all, so the person's next step is the same and an
 * attacker learns nothing about which check failed.
 */
export async function redeemLinkGrant(
  keys: LinkGrantKeys,
  grant: LinkGrant,
  token: unknown,
  message = "The link is invalid, expired or already used",
): Promise<void> {
  const { use } = storage(keys.adapter)
  const invalid = (reason: string) => new Verification(message, { details: { reason } })
  if (typeof token !== "string" || token === "" || token.length > MAX_LINK_TOKEN_LENGTH) {
    throw invalid("malformed-token")
  }
  const stamp = await stampFor(keys, grant)
  let stored: Awaited<ReturnType<typeof use>> = null
  let expected = ""
  // Newest secret first: the one current links are signed with, so usually one lookup.
  for (const secret of keys.secrets) {
    expected = await storedLinkValue(token, grant, stamp, secret)
    stored = await use({ identifier: grant.identifier, token: expected })
    if (stored) break
  }
  if (!stored) throw invalid("unknown-used-or-moved")
  // The adapter looked the row up by these values; checking again guards against an adapter
  // that matches loosely (case-insensitive collation, trimming, a prefix index).
  if (
    !storedTokenEquals(String(stored.token), expected) ||
    stored.identifier !== grant.identifier
  ) {
    throw invalid("mismatch")
  }
  const expires = new Date(stored.expires).getTime()
  const now = Date.now()
  if (Number.isNaN(expires) || expires <= now) throw invalid("expired")
  if (!keys.store) return
  let fresh: boolean
  try {
    fresh = await keys.store.consumeOnce(`link:${expected}`, Math.max(1000, expires - now))
  } catch (cause) {
    throw new Verification(`${message} (it could not be checked: store unavailable)`, {
      cause,
      details: { reason: "store-unavailable" },
    })
  }
  if (!fresh) throw invalid("replayed")
}
