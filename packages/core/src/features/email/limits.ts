/**
 * The two limits on sending sign-in mails, and what each one does when exceeded.
 *
 * - Per client IP (default 20 per 15 min): an automated client hammering the endpoint. It gets
 *   `RateLimited` → a 429 "Too many attempts" page. That page reveals nothing about any
 *   address: it depends only on the caller's own request count, whatever addresses they typed.
 * - Per mailbox (default 5 per 15 min): someone mail-bombing one inbox, possibly from many IPs.
 *   Counted per mailbox, not per spelling: lower-cased, NFKC, `+tag` removed, so `carol+1@…`
 *   to `carol+99@…` share carol's counter (the mail still goes to the address given).
 *   Here the caller sees the usual verify-request page and no mail is sent. A 429 would tell an
 *   attacker "this address was just asked for" (by its owner, perhaps), and the real owner,
 *   who already has up to 5 working links in their inbox, loses nothing.
 */

import type { StoreError } from "../../kernel/errors/errors.js"
import { mailboxOf } from "../../kernel/mail/address.js"
import { clientIpKey } from "../../kernel/rate-limit/client-ip.js"
import { countAttempt } from "../../kernel/rate-limit/count-attempt.js"
import { defaultStore } from "../../kernel/rate-limit/memory-store.js"
import type { RateLimitRule, RateLimitStore } from "../../kernel/types/store.js"
import type { EmailRateLimitOptions } from "./config.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000

/** 5 sign-in mails per address per 15 minutes. */
export const DEFAULT_PER_ADDRESS: Readonly<RateLimitRule> = Object.freeze({
  limit: 5,
  windowMs: FIFTEEN_MINUTES,
})

/** 20 sign-in mail requests per client IP per 15 minutes. */
export const DEFAULT_PER_IP: Readonly<RateLimitRule> = Object.freeze({
  limit: 20,
  windowMs: FIFTEEN_MINUTES,
})

/** @deprecated The in-memory store used when none is configured: {@link defaultStore}. */
export const defaultRateLimitStore = defaultStore

export type EmailRateLimitVerdict =
  | { allowed: true; unavailable?: StoreError }
  | {
      allowed: false
      scope: "ip" | "address"
      retryAfterSeconds: number
    }

async function hitLimit(
  options: EmailRateLimitOptions | undefined,
  configStore: RateLimitStore,
  scope: "ip" | "address",
  value: string,
  rule: RateLimitRule | false,
): Promise<EmailRateLimitVerdict> {
  const store = options?.store ?? configStore
  const verdict = await countAttempt(
    store,
    `email-send:${scope}:${value}`,
    rule,
    options?.failOpen,
    {
      strangerKeyed: true,
    },
  )
  return verdict.allowed ? verdict : { ...verdict, scope }
}

/**
 * Counts one attempt from `ip` (as `getClientIp` or the default reading gave it: parsed and
 * grouped here, see `clientIpKey`). No IP, or none that parses: not limited.
 */
export async function hitIpLimit(
  options: EmailRateLimitOptions | false | undefined,
  ip: string | undefined,
  configStore: RateLimitStore = defaultStore(),
): Promise<EmailRateLimitVerdict> {
  if (options === false) return { allowed: true }
  const key = clientIpKey(ip, options?.ipv6Prefix)
  if (key === undefined) return { allowed: true }
  return hitLimit(options, configStore, "ip", key, options?.perIp ?? DEFAULT_PER_IP)
}

/** Counts one mail to `identifier`'s mailbox (see {@link mailboxOf}). */
export async function hitAddressLimit(
  options: EmailRateLimitOptions | false | undefined,
  identifier: string,
  configStore: RateLimitStore = defaultStore(),
): Promise<EmailRateLimitVerdict> {
  if (options === false) return { allowed: true }
  const rule = options?.perAddress ?? DEFAULT_PER_ADDRESS
  return hitLimit(options, configStore, "address", mailboxOf(identifier), rule)
}
