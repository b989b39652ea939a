/**
 * The shape of an email (magic link) provider, as apps configure it and the core uses it.
 * Public through `@latchkey/core/providers/email`. Kept apart from the `Email` and
 * `Nodemailer` factories, which use it, so that neither factory module imports the other's
 * types back.
 */
import type { EmailServer } from "../../kernel/mail/server.js"
import type { Awaitable } from "../../kernel/types/awaitable.js"
import type { Theme } from "../../kernel/types/pages.js"
import type { CommonProviderOptions } from "../../kernel/types/provider.js"
import type { SignInRateLimitOptions } from "../../kernel/types/rate-limit-options.js"
import type { RateLimitRule } from "../../kernel/types/store.js"

/** What `sendVerificationRequest` gets: everything needed to write and send one mail. */
export interface SendVerificationRequestParams {
  /** The normalized address the link is for (and the mail goes to). */
  identifier: string
  /** The full sign-in link. */
  url: string
  /** When the link stops working. */
  expires: Date
  /** The provider, with every default filled in. */
  provider: EmailConfig
  /** The raw token (also in `url`). Never log it. */
  token: string
  theme: Theme
  /** The sign-in request, e.g. to localise the mail from `Accept-Language`. */
  request: Request
}

/**
 * Rate limits of sending sign-in mails. Defaults: 5 mails per address and 20 per client IP per
 * 15 minutes, counted in the top-level `store` (one in-memory store per process by default).
 * `false` (here or for one rule) turns limiting off.
 */
export interface EmailRateLimitOptions extends SignInRateLimitOptions {
  /** Mails to one address. Over the limit: the verify-request page is shown, nothing is sent. */
  perAddress?: RateLimitRule | false
  /** Sign-in mails requested from one client IP. Over the limit: a 429 "too many attempts" page. */
  perIp?: RateLimitRule | false
}

export type { EmailServer }

/** An email provider with every default filled in, as the core uses it. */
export interface EmailConfig extends CommonProviderOptions {
  type: "email"
  /** SMTP connection for the default sender. */
  server?: EmailServer
  /** The `From` header. */
  from?: string
  /** Seconds a link stays valid. Default 600 (10 minutes). */
  maxAge: number
  /** Sends the mail. Throw to report failure (see `EmailSignInError`). */
  sendVerificationRequest: (params: SendVerificationRequestParams) => Awaitable<void>
  /**
   * Turns the submitted address into the identifier tokens and users are keyed by. Throw
   * `EmailSignInError` to refuse an address; default: `normalizeIdentifier` in `features/email`.
   */
  normalizeIdentifier?: (identifier: string) => string
  /** Makes the raw token; default 32 CSPRNG bytes, base64url. Must be unguessable. */
  generateVerificationToken?: () => Awaitable<string>
  /** Overrides `config.secret` for this provider's tokens (several: the first signs). */
  secret?: string | string[]
  /** For HTTP mail APIs; `setEnvDefaults` fills it from `AUTH_<ID>_KEY`. */
  apiKey?: string
  /** Sending limits; see {@link EmailRateLimitOptions}. */
  rateLimit?: EmailRateLimitOptions | false
  /** The options the factory was called with. */
  options?: EmailUserConfig
}

/** What an app passes to `Email(…)` / `Nodemailer(…)`: any field of {@link EmailConfig}. */
export type EmailUserConfig = Partial<Omit<EmailConfig, "type" | "options">>
