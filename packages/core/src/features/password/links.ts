/**
 * The single-use links of password accounts (sign-up verification, reset, email change): mailed
 * links minted and redeemed as grants (`kernel/grants/link.ts`), so each is bound to the account's
 * state and dies when it moves (a claim, a reset, a password or address change).
 *
 * Each link is also bound to its purpose, its user and the address it was mailed to: the row id
 * is `latchkey-password:<purpose>:<userId>:<email>`, so a reset link cannot verify an address, a
 * link for one user cannot act on another, and a link mailed before an email change is void
 * after it. The `:` keeps these rows apart from every email sign-in identifier (the address
 * normaliser refuses `:`). A verification link is bound to the browser that signed up too
 * (`sign-up-browser.ts`).
 */
import { Verification } from "../../kernel/errors/errors.js"
import { type LinkGrantKeys, mintLinkGrant, redeemLinkGrant } from "../../kernel/grants/link.js"
import type { LinkGrantPurpose } from "../../kernel/grants/purposes.js"

export type LinkPurpose = "verify" | "reset" | "email-change"

export interface LinkBinding {
  purpose: LinkPurpose
  userId: string
  /** The address the link is mailed to (the new address for an email change). */
  email: string
  /** Verification links: the hash of the signing-up browser's nonce (the link's `browser`). */
  browser?: string | undefined
}

export type LinkKeys = LinkGrantKeys

const GRANT: Record<LinkPurpose, LinkGrantPurpose> = {
  verify: "password-verify",
  reset: "password-reset",
  "email-change": "email-change",
}

function grantOf({ purpose, userId, email, browser }: LinkBinding) {
  return {
    purpose: GRANT[purpose],
    identifier: `latchkey-password:${purpose}:${userId}:${email}`,
    userId,
    extra: browser,
  }
}

/** Stores a new link for `binding`; returns the raw token (for the mail only) and its expiry. */
export function mintLink(
  keys: LinkKeys,
  binding: LinkBinding,
  maxAgeSeconds: number,
): Promise<{ token: string; expires: Date }> {
  return mintLinkGrant(keys, grantOf(binding), maxAgeSeconds)
}

const bounded = (value: unknown, max: number): value is string =>
  typeof value === "string" && value !== "" && value.length <= max

/**
 * Consumes the link (whatever happens next, it is gone). Throws `Verification` for a link that
 * is malformed, unknown, used, expired, bound to something else or minted before the account's
 * state moved: one error for all.
 */
export async function consumeLink(
  keys: LinkKeys,
  binding: { purpose: LinkPurpose; userId: unknown; email: unknown; browser?: unknown },
  token: unknown,
): Promise<LinkBinding> {
  const { userId, email, browser } = binding
  const invalid = (reason: string) =>
    new Verification("The link is invalid, expired or already used", { details: { reason } })
  if (!bounded(userId, 512)) throw invalid("malformed-user")
  if (!bounded(email, 320)) throw invalid("malformed-email")
  if (browser !== undefined && !bounded(browser, 64)) throw invalid("malformed-browser")
  const bound: LinkBinding = { purpose: binding.purpose, userId, email, browser }
  await redeemLinkGrant(keys, grantOf(bound), token)
  return bound
}
