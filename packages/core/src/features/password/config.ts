/**
 * The shape of the `Password` provider as the core uses it, and its start-up check. The
 * provider is a credentials provider (same sign-in URL, form, limits and session path) whose
 * `passwordAccount` field carries what the core needs to run the whole account itself.
 */

import {
  type AuthError,
  InvalidParameter,
  MissingAdapter,
  MissingAdapterMethods,
} from "../../kernel/errors/errors.js"
import type { EmailServer } from "../../kernel/mail/server.js"
import { type Adapter, passwordAdapterMethods } from "../../kernel/types/adapters.js"
import type { Awaitable } from "../../kernel/types/awaitable.js"
import type { CredentialsConfig } from "../../kernel/types/credentials.js"
import type { Theme } from "../../kernel/types/pages.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import type { RateLimitRule } from "../../kernel/types/store.js"
import type { PasswordHasher } from "./hash.js"
import type { ResolvedPolicy } from "./policy.js"

/** Why a password mail is sent; each has its own template (`features/password/messages.ts`). */
export type PasswordMailPurpose =
  /** After sign-up: the link that proves the address. */
  | "verify"
  /** "Forgot password": the reset link. */
  | "reset"
  /** Someone signed up with an address that has an account: a notice, with a reset link. */
  | "account-exists"
  /** An email change: the link to the new address that proves it. */
  | "email-change"
  /** An email change was asked for: the notice to the old address. */
  | "email-change-notice"

export interface PasswordMessage {
  subject: string
  text: string
  html: string
}

/** What `sendPasswordMail` gets: one mail, written by the purpose's template. */
export interface SendPasswordMailParams {
  purpose: PasswordMailPurpose
  /** The recipient (a normalised address). */
  identifier: string
  /** The link in the mail (`undefined` for a notice without one). Never log it. */
  url: string | undefined
  /** When the link stops working. */
  expires: Date | undefined
  /** The default template's subject, text and HTML; a custom sender may use its own. */
  message: PasswordMessage
  provider: PasswordConfig
  theme: Theme
  request: Request
}

/** Limits of the mails the password flows send (sign-up, resend, forgot, email change). */
export interface PasswordMailRateLimit {
  /** Mails to one address. Default 5 per 15 minutes; over it nothing is sent, the answer is the same. */
  perAddress?: RateLimitRule | false
  /** Requests from one client IP. Default 20 per 15 minutes; over it a 429. */
  perIp?: RateLimitRule | false
}

/** What the core reads from a `Password` provider (every default filled in). */
export interface PasswordSettings {
  /** Unproven accounts cannot sign in (default `true`). */
  readonly requireEmailVerification: boolean
  readonly server: EmailServer | undefined
  readonly from: string | undefined
  /** Sends one mail; default: nodemailer through `server`. */
  readonly sendPasswordMail: ((params: SendPasswordMailParams) => Awaitable<void>) | undefined
  /** Seconds a sign-up verification link works (default 3600). */
  readonly verificationMaxAge: number
  /** Seconds a reset link works (default 1800, at most 3600). */
  readonly resetMaxAge: number
  /** Seconds an email-change link works (default 3600). */
  readonly emailChangeMaxAge: number
  readonly policy: ResolvedPolicy
  readonly hasher: PasswordHasher
  readonly mailRateLimit: PasswordMailRateLimit | false
  /** Overrides `config.secret` for the links' MACs. */
  readonly secret: string | string[] | undefined
}

/** The `Password` provider: a credentials provider with `passwordAccount`. */
export interface PasswordConfig
  extends CredentialsConfig<{
    email: { label: string; type: string; autocomplete: string }
    password: { label: string; type: string; autocomplete: string }
  }> {
  readonly passwordAccount: PasswordSettings
}

export function isPasswordProvider(
  provider: ProviderConfig | undefined,
): provider is PasswordConfig {
  return (
    provider?.type === "credentials" &&
    typeof (provider as Partial<PasswordConfig>).passwordAccount === "object"
  )
}

/** The first `Password` provider of the config, if any (one per app is the expected setup). */
export function findPasswordProvider(
  providers: readonly ProviderConfig[],
): PasswordConfig | undefined {
  return providers.find(isPasswordProvider)
}

/** Every adapter method the password account needs. */
export const PASSWORD_NEEDS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "updateUser",
  "createVerificationToken",
  "useVerificationToken",
  ...passwordAdapterMethods,
] as const satisfies readonly (keyof Adapter)[]

/**
 * Start-up problems of a `Password` provider: no adapter, an adapter without the methods
 * (named), a verification requirement with no way to send mail (naming the option), a reset
 * link that lives longer than an hour.
 */
export function checkPasswordProvider(
  provider: PasswordConfig,
  adapter: Adapter | undefined,
  problems: AuthError[],
): void {
  const settings = provider.passwordAccount
  if (!adapter) {
    problems.push(
      new MissingAdapter(
        `The Password provider "${provider.id}" stores users and password hashes and needs an adapter with ${PASSWORD_NEEDS.join(", ")}`,
      ),
    )
  } else {
    const missing = PASSWORD_NEEDS.filter(
      (m) => typeof (adapter as Record<string, unknown>)[m] !== "function",
    )
    if (missing.length > 0) {
      problems.push(
        new MissingAdapterMethods(
          `The Password provider "${provider.id}" needs adapter methods the adapter lacks: ${missing.join(", ")}`,
          { details: { provider: provider.id, missing } },
        ),
      )
    }
  }
  if (!settings.sendPasswordMail && settings.server === undefined) {
    if (settings.requireEmailVerification) {
      problems.push(
        new InvalidParameter(
          `providers["${provider.id}"].server`,
          "is needed to send the sign-up verification mails (an SMTP URL or nodemailer options), or pass sendPasswordMail; to run without mail, set requireEmailVerification: false explicitly",
        ),
      )
    }
  }
  if (!(settings.resetMaxAge > 0 && settings.resetMaxAge <= 3600)) {
    problems.push(
      new InvalidParameter(
        `providers["${provider.id}"].resetMaxAge`,
        "must be between 1 and 3600 seconds: a reset link is a key to the account",
      ),
    )
  }
}

/** Whether the provider can send mail at all (a transport or a custom sender). */
export function canSendMail(settings: PasswordSettings): boolean {
  return settings.sendPasswordMail !== undefined || settings.server !== undefined
}
