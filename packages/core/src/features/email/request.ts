/**
 * First half of email sign-in, for `POST /signin/<email provider>` (after the CSRF check):
 * normalize the address, apply the rate limits, ask the `signIn` callback, store the token's
 * HMAC, send the link. Returns data; the core turns it into a response.
 *
 * No user enumeration (ASVS 6.3.8): for any well-formed address the answer is the
 * verify-request page, whether or not a user exists, whether or not the per-address limit
 * held the mail back, and whether or not the mail server accepted that mailbox.
 */

import type { CallbacksOptions } from "../../kernel/config/auth-config.js"
import {
  AccessDenied,
  AuthError,
  EmailSignInError,
  MissingAdapterMethods,
  RateLimited,
} from "../../kernel/errors/errors.js"
import { mintLinkGrant } from "../../kernel/grants/link.js"
import { emailSecrets } from "../../kernel/grants/link-secrets.js"
import { normalizeIdentifier as defaultNormalizeIdentifier } from "../../kernel/mail/address.js"
import type { Adapter, AdapterUser } from "../../kernel/types/adapters.js"
import type { Theme } from "../../kernel/types/pages.js"
import type { Account } from "../../kernel/types/records.js"
import type { RateLimitStore } from "../../kernel/types/store.js"
import type { EmailConfig, EmailRateLimitOptions } from "./config.js"
import { hitAddressLimit, hitIpLimit } from "./limits.js"

export interface RequestEmailSignInParams {
  provider: EmailConfig
  /** The raw `email` field of the request body (anything: it is checked here). */
  email: unknown
  adapter: Adapter | undefined
  /** `config.secret`; the provider's own `secret` wins. The first signs. */
  secret: string | readonly string[] | undefined
  /** Already validated by the core; goes into the link. */
  callbackUrl: string
  /** The app's origin, e.g. `https://app.example.com`. */
  origin: string
  /** e.g. `/auth`. */
  basePath: string
  /** `config.callbacks.signIn`; missing → allow. */
  signInCallback?: CallbacksOptions["signIn"] | undefined
  theme: Theme
  request: Request
  /** Default: `provider.rateLimit` (and the built-in defaults). */
  rateLimit?: EmailRateLimitOptions | false | undefined
  /** The config's `store`, used unless `rateLimit.store` is set. Default: the memory store. */
  store?: RateLimitStore | undefined
  /** The client's IP from a trusted source; `undefined` skips the per-IP limit. */
  ip?: string | undefined
  /**
   * The account's state stamp (`accountStamp`): the link is bound to the state of the account
   * holding the address when it is mailed (docs/design/pending-grants.md).
   */
  stampOf(userId: string): Promise<number>
  logger?: {
    error(error: Error): void
    debug(message: string, metadata?: Record<string, unknown>): void
  }
}

/**
 * What the core does next:
 * - `verify-request`: redirect to the verify-request page (`?provider=<id>&type=email`).
 *   `status` is for logs and tests only; the response must not depend on it.
 * - `redirect`: the `signIn` callback returned a URL; pass it through the `redirect` callback.
 */
export type RequestEmailSignInResult =
  | {
      kind: "verify-request"
      identifier: string
      status: "sent" | "address-rate-limited" | "recipient-rejected"
    }
  | { kind: "redirect"; url: string }

/**
 * Throws `EmailSignInError` (malformed address, or the mail transport is down: the same for
 * every address, so it reveals nothing), `RateLimited` (per-IP limit), `AccessDenied`
 * (`signIn` callback), `MissingSecret` / `MissingAdapterMethods` (configuration).
 */
export async function requestEmailSignIn(
  params: RequestEmailSignInParams,
): Promise<RequestEmailSignInResult> {
  const { provider, adapter, logger } = params
  const rateLimit = params.rateLimit ?? provider.rateLimit
  if (!adapter?.createVerificationToken || !adapter.getUserByEmail) {
    throw new MissingAdapterMethods(
      "Email sign-in needs an adapter with createVerificationToken, useVerificationToken and getUserByEmail",
      { details: { provider: provider.id } },
    )
  }
  const secrets = emailSecrets(provider, params.secret)
  const identifier = normalize(provider, params.email)

  // Before any database work: this is the limit an automated client runs into.
  const ipVerdict = await hitIpLimit(rateLimit, params.ip, params.store)
  if (ipVerdict.allowed && ipVerdict.unavailable) logger?.error(ipVerdict.unavailable)
  if (!ipVerdict.allowed) {
    throw new RateLimited("Too many sign-in mails requested from this client", {
      details: {
        provider: provider.id,
        scope: "ip",
        retryAfterSeconds: ipVerdict.retryAfterSeconds,
      },
    })
  }

  const holder = await adapter.getUserByEmail(identifier)
  const user: AdapterUser = holder ?? {
    id: crypto.randomUUID(),
    email: identifier,
    emailVerified: null,
  }
  const account: Account = {
    provider: provider.id,
    providerAccountId: identifier,
    type: "email",
    userId: user.id,
  }
  const decision = await runSignInCallback(params.signInCallback, user, account)
  if (typeof decision === "string") return { kind: "redirect", url: decision }

  const addressVerdict = await hitAddressLimit(rateLimit, identifier, params.store)
  if (addressVerdict.allowed && addressVerdict.unavailable)
    logger?.error(addressVerdict.unavailable)
  if (!addressVerdict.allowed) {
    logger?.debug("email_send_rate_limited", { provider: provider.id, scope: "address" })
    return { kind: "verify-request", identifier, status: "address-rate-limited" }
  }

  // Stored before sending, so a link that arrives always works.
  const { token, expires } = await mintLinkGrant(
    { secrets, adapter, stampOf: params.stampOf },
    { purpose: "email-sign-in", identifier, userId: holder?.id ?? null },
    provider.maxAge,
    provider.generateVerificationToken ? await provider.generateVerificationToken() : undefined,
  )
  const url = callbackLink(params, { token, identifier })
  try {
    await provider.sendVerificationRequest({
      identifier,
      url,
      expires,
      provider,
      token,
      theme: params.theme,
      request: params.request,
    })
  } catch (error) {
    const failure =
      error instanceof EmailSignInError
        ? error
        : new EmailSignInError("The sign-in mail could not be sent", {
            cause: error,
            details: { provider: provider.id, reason: "transport" },
          })
    // A mailbox the server refuses is the one outcome that depends on the address: answer as
    // if it was sent (a 4xx/5xx on RCPT would tell who has a mailbox on the app's own mail
    // domain) and leave the details to the log. Any other failure (server down, bad
    // credentials, a custom sender that threw) would hit every address alike: say so, so the
    // person does not wait for a mail that will never come.
    if (failure.details?.reason === "recipient-rejected") {
      logger?.error(failure)
      return { kind: "verify-request", identifier, status: "recipient-rejected" }
    }
    throw failure
  }
  return { kind: "verify-request", identifier, status: "sent" }
}

function normalize(provider: EmailConfig, raw: unknown): string {
  if (!provider.normalizeIdentifier) return defaultNormalizeIdentifier(raw)
  if (typeof raw !== "string" || raw.trim() === "") {
    throw new EmailSignInError("Enter your email address.", { details: { reason: "missing" } })
  }
  try {
    const identifier = provider.normalizeIdentifier(raw)
    if (typeof identifier !== "string" || identifier === "") {
      throw new TypeError("normalizeIdentifier must return a non-empty string")
    }
    return identifier
  } catch (error) {
    // A custom normalizer refusing an address is a user-facing refusal, not a server error.
    if (error instanceof EmailSignInError) throw error
    throw new EmailSignInError("The email address was not accepted.", {
      cause: error,
      details: { provider: provider.id, reason: "custom-normalizer" },
    })
  }
}

/** `true` to go on, a URL to redirect to; anything else ends in `AccessDenied`. */
async function runSignInCallback(
  signIn: CallbacksOptions["signIn"] | undefined,
  user: AdapterUser,
  account: Account,
): Promise<true | string> {
  if (!signIn) return true
  let result: unknown
  try {
    result = await signIn({ user, account, email: { verificationRequest: true } })
  } catch (error) {
    // As in Auth.js's send step, every throw (AuthError or not) becomes AccessDenied.
    throw new AccessDenied("The signIn callback refused the email sign-in", {
      cause: error,
      details: error instanceof AuthError ? { thrown: error.type } : undefined,
    })
  }
  if (typeof result === "string") return result
  if (!result) throw new AccessDenied("The signIn callback refused the email sign-in")
  return true
}

/** `<origin><basePath>/callback/<id>?callbackUrl=…&token=…&email=…` (Auth.js's order). */
export function callbackLink(
  params: Pick<RequestEmailSignInParams, "origin" | "basePath" | "callbackUrl" | "provider">,
  link: { token: string; identifier: string },
): string {
  const base = params.basePath === "/" ? "" : params.basePath.replace(/\/+$/, "")
  const url = new URL(`${base}/callback/${encodeURIComponent(params.provider.id)}`, params.origin)
  url.searchParams.set("callbackUrl", params.callbackUrl)
  url.searchParams.set("token", link.token)
  url.searchParams.set("email", link.identifier)
  return url.href
}
