/**
 * Limits on `GET /webauthn-options` (issue 23): per client IP (every request) and per address
 * (requests that name an email), through the configured store so every instance counts
 * together. The options endpoint mints a challenge and, for registration, names an address: a
 * client hammering it is either probing addresses or filling the store, and both are cut off.
 *
 * The refusal is the same 429 whatever the address, known or not: it depends only on the
 * caller's own request count. Addresses are hashed before they become store keys.
 */

import { sha256Base64Url } from "../../kernel/crypto/digest.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { mailboxOf } from "../../kernel/mail/address.js"
import { requestClientIp } from "../../kernel/rate-limit/client-ip.js"
import { enforceChecks } from "../../kernel/rate-limit/count-attempt.js"
import type { PasskeyOptionsRateLimitOptions } from "../../kernel/types/rate-limit-options.js"
import type { RateLimitRule } from "../../kernel/types/store.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000

/**
 * 100 options requests per client IP per 15 minutes: the sign-in page asks once per view
 * (conditional UI), so a person never meets it, an office behind one NAT rarely.
 */
export const DEFAULT_PASSKEY_OPTIONS_PER_IP: Readonly<RateLimitRule> = Object.freeze({
  limit: 100,
  windowMs: FIFTEEN_MINUTES,
})

/** 10 options requests naming one address per 15 minutes. */
export const DEFAULT_PASSKEY_OPTIONS_PER_ADDRESS: Readonly<RateLimitRule> = Object.freeze({
  limit: 10,
  windowMs: FIFTEEN_MINUTES,
})

/** Counts this options request; throws `RateLimited` when a limit (or the store) refuses. */
export async function enforcePasskeyOptionsLimits(
  ctx: RequestContext,
  providerId: string,
  options: PasskeyOptionsRateLimitOptions | false | undefined,
  email: string | undefined,
): Promise<void> {
  if (options === false) return
  const store = options?.store ?? ctx.config.store
  const ip = requestClientIp(ctx.request, options, ctx.logger)
  const address = email === undefined ? undefined : await sha256Base64Url(mailboxOf(email))
  await enforceChecks(
    ctx.logger,
    store,
    [
      {
        scope: "ip",
        key: ip && `passkey-options:ip:${ip}`,
        rule: options?.perIp ?? DEFAULT_PASSKEY_OPTIONS_PER_IP,
        strangerKeyed: true,
      },
      {
        scope: "address",
        key: address && `passkey-options:address:${address}`,
        rule: options?.perAddress ?? DEFAULT_PASSKEY_OPTIONS_PER_ADDRESS,
        strangerKeyed: true,
      },
    ],
    { failOpen: options?.failOpen, provider: providerId, message: "Too many passkey requests" },
  )
}
