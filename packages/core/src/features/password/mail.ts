/**
 * Sending the password mails: the per-IP limit of the requests that send them, the per-address
 * limit of the mails themselves, and the hand-over to the sender: the app's `sendPasswordMail`,
 * or the provider's default one, nodemailer through `server` (set in `providers/password.ts`, so
 * nodemailer is never imported from the core's main entry and stays out of client bundles).
 *
 * A mail that cannot be sent is logged, never reported to the client: whether a mail was due
 * depends on whether the address has an account, so a failure the client could see would tell.
 * The flows call this after their answer (`http/deferred.ts`), so a send is tried again a few
 * times ({@link RETRY_DELAYS_MS}) before it is given up and logged.
 */

import { sha256Base64Url } from "../../kernel/crypto/digest.js"
import { EmailSignInError, InvalidParameter } from "../../kernel/errors/errors.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { requestClientIp } from "../../kernel/rate-limit/client-ip.js"
import { countAttempt, enforceChecks } from "../../kernel/rate-limit/count-attempt.js"
import type { RateLimitRule } from "../../kernel/types/store.js"
import type { PasswordConfig, PasswordMailPurpose } from "./config.js"
import { type LinkBinding, type LinkPurpose, mintLink } from "./links.js"
import { passwordMessage } from "./messages.js"
import { linkKeys, passwordUrl } from "./urls.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000
export const DEFAULT_MAILS_PER_ADDRESS: RateLimitRule = { limit: 5, windowMs: FIFTEEN_MINUTES }
export const DEFAULT_MAIL_REQUESTS_PER_IP: RateLimitRule = { limit: 20, windowMs: FIFTEEN_MINUTES }

/**
 * The client's per-IP key: the provider's `getClientIp` (else the default reading of proxy
 * headers), parsed and grouped by `ipv6Prefix` as every per-IP limit is.
 */
export function clientIp(ctx: RequestContext, provider: PasswordConfig): string | undefined {
  const limits = provider.rateLimit
  return requestClientIp(ctx.request, limits === false ? undefined : limits, ctx.logger)
}

/** Counts a mail-sending request (sign-up, resend, forgot) per client IP; `RateLimited` over it. */
export async function enforceMailRequestLimit(
  ctx: RequestContext,
  provider: PasswordConfig,
  action: string,
): Promise<void> {
  const limits = provider.passwordAccount.mailRateLimit
  if (limits === false) return
  const ip = clientIp(ctx, provider)
  await enforceChecks(
    ctx.logger,
    ctx.config.store,
    [
      {
        scope: "ip",
        key: ip && `password-mail:ip:${ip}`,
        rule: limits.perIp ?? DEFAULT_MAIL_REQUESTS_PER_IP,
        strangerKeyed: true,
      },
    ],
    { failOpen: false, provider: provider.id, message: `Too many ${action} requests` },
  )
}

export interface PasswordMail {
  purpose: PasswordMailPurpose
  to: string
  url: string | undefined
  expires: Date | undefined
}

/** Sends one mail unless the address had its share; every failure is logged, none thrown. */
export async function sendPasswordMail(
  ctx: RequestContext,
  provider: PasswordConfig,
  mail: PasswordMail,
): Promise<"sent" | "not-sent"> {
  const settings = provider.passwordAccount
  const limits = settings.mailRateLimit
  try {
    if (limits !== false) {
      const key = `password-mail:address:${await sha256Base64Url(mail.to)}`
      const verdict = await countAttempt(
        ctx.config.store,
        key,
        limits.perAddress ?? DEFAULT_MAILS_PER_ADDRESS,
        false,
        // Any typed address: a stranger's flood may evict these counters, never security state.
        { strangerKeyed: true },
      )
      if (!verdict.allowed) {
        ctx.logger.debug("password mail rate limited", { purpose: mail.purpose })
        return "not-sent"
      }
    }
    const message = passwordMessage({
      purpose: mail.purpose,
      origin: ctx.origin,
      url: mail.url,
      theme: ctx.config.theme,
    })
    const params = {
      purpose: mail.purpose,
      identifier: mail.to,
      url: mail.url,
      expires: mail.expires,
      message,
      provider,
      theme: ctx.config.theme,
      request: ctx.request,
    }
    const send = settings.sendPasswordMail
    if (!send) {
      throw new InvalidParameter(
        `providers["${provider.id}"].server`,
        "is required to send password mails with nodemailer (or pass sendPasswordMail)",
      )
    }
    await withRetries(() => send(params))
    return "sent"
  } catch (error) {
    ctx.logger.error(
      error instanceof EmailSignInError || error instanceof InvalidParameter
        ? error
        : new EmailSignInError(
            `The ${mail.purpose} mail could not be sent (${RETRY_DELAYS_MS.length + 1} attempts)`,
            {
              cause: error,
              details: { provider: provider.id, purpose: mail.purpose },
            },
          ),
    )
    return "not-sent"
  }
}

/** Waits between tries of a send that failed: a mail server's hiccup loses no mail. */
export const RETRY_DELAYS_MS: readonly number[] = [250, 1000]

async function withRetries(send: () => unknown): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await send()
      return
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempt]
      if (delay === undefined) throw error
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }
}

/** How long each kind of link lives (the provider's settings). */
function linkMaxAge(provider: PasswordConfig, purpose: LinkPurpose): number {
  const settings = provider.passwordAccount
  if (purpose === "verify") return settings.verificationMaxAge
  if (purpose === "reset") return settings.resetMaxAge
  return settings.emailChangeMaxAge
}

/**
 * Mints a single-use link bound to `binding` and mails it to `binding.email` (as
 * `mailPurpose`, which defaults to the link's own: a sign-up for a held address sends the owner
 * an "account exists" notice carrying a reset link).
 */
export async function sendLinkMail(
  ctx: RequestContext,
  provider: PasswordConfig,
  binding: LinkBinding,
  mailPurpose: PasswordMailPurpose = binding.purpose,
): Promise<void> {
  const { purpose, userId, email, browser } = binding
  const link = await mintLink(linkKeys(ctx, provider), binding, linkMaxAge(provider, purpose))
  const params = { token: link.token, uid: userId, email, ...(browser ? { browser } : {}) }
  await sendPasswordMail(ctx, provider, {
    purpose: mailPurpose,
    to: email,
    url: passwordUrl(ctx, purpose, params),
    expires: link.expires,
  })
}
