/**
 * Sending the password mails: the per-IP limit of the requests that send them, the per-address
 * limit of the mails themselves, and the transport (the app's `sendPasswordMail`, else
 * nodemailer through `server`, loaded only when a mail is sent, as for the email provider).
 *
 * A mail that cannot be sent is logged, never reported to the client: whether a mail was due
 * depends on whether the address has an account, so a failure the client could see would tell.
 */
import { EmailSignInError, InvalidParameter } from "../../errors.js"
import type { RequestContext } from "../context.js"
import { sha256Base64Url } from "../crypto/digest.js"
import { defaultClientIp } from "../rate-limit/client-ip.js"
import { countAttempt, enforceChecks } from "../rate-limit/count-attempt.js"
import type { RateLimitRule } from "../rate-limit/store.js"
import type { PasswordConfig, PasswordMailPurpose } from "./config.js"
import { passwordMessage } from "./messages.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000
export const DEFAULT_MAILS_PER_ADDRESS: RateLimitRule = { limit: 5, windowMs: FIFTEEN_MINUTES }
export const DEFAULT_MAIL_REQUESTS_PER_IP: RateLimitRule = { limit: 20, windowMs: FIFTEEN_MINUTES }
const DEFAULT_FROM = "Latchkey <no-reply@localhost>"

/** The client IP: the provider's `getClientIp`, else the default reading of proxy headers. */
export function clientIp(ctx: RequestContext, provider: PasswordConfig): string | undefined {
  const limits = provider.rateLimit
  const read = (limits === false ? undefined : limits?.getClientIp) ?? defaultClientIp
  return read(ctx.request)
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
    if (settings.sendPasswordMail) await settings.sendPasswordMail(params)
    else await sendWithNodemailer(provider, mail.to, message)
    return "sent"
  } catch (error) {
    ctx.logger.error(
      error instanceof EmailSignInError || error instanceof InvalidParameter
        ? error
        : new EmailSignInError(`The ${mail.purpose} mail could not be sent`, {
            cause: error,
            details: { provider: provider.id, purpose: mail.purpose },
          }),
    )
    return "not-sent"
  }
}

async function sendWithNodemailer(
  provider: PasswordConfig,
  to: string,
  message: { subject: string; text: string; html: string },
): Promise<void> {
  const { server, from } = provider.passwordAccount
  if (server === undefined) {
    throw new InvalidParameter(
      `providers["${provider.id}"].server`,
      "is required to send password mails with nodemailer (or pass sendPasswordMail)",
    )
  }
  const { createTransport } = await import("nodemailer")
  const transport = createTransport(server)
  try {
    // The address as an object, so nodemailer does not parse it as an address list.
    await transport.sendMail({
      to: { name: "", address: to },
      from: from ?? DEFAULT_FROM,
      ...message,
    })
  } finally {
    transport.close()
  }
}
