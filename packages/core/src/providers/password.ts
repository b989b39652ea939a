/**
 * Email + password accounts run by the core: sign-up with a verification link, sign-in, forgot
 * and reset, change password, change email, all stored through the adapter.
 *
 * ```ts
 * import Password from "@latchkey/core/providers/password"
 *
 * Password({ server: process.env.EMAIL_SERVER, from: "Example <no-reply@example.com>" })
 * ```
 *
 * Sign-in is `POST {basePath}/callback/password` (fields `email`, `password`, `csrfToken`);
 * the rest lives under `{basePath}/password/*` (see `features/password/actions.ts`). The adapter
 * needs `getPasswordHash`, `setPasswordHash` and `deletePasswordHash` besides the user and
 * verification-token methods; a missing one is named at start-up.
 *
 * @module @latchkey/core/providers/password
 */

import { accountApiFeature } from "../features/account-api/index.js"
import type {
  PasswordConfig,
  PasswordMailRateLimit,
  SendPasswordMailParams,
} from "../features/password/config.js"
import {
  createPasswordHasher,
  type PasswordHasher,
  type PasswordHasherOptions,
} from "../features/password/hash.js"
import { passwordFeature } from "../features/password/index.js"
import { type PasswordPolicyOptions, resolvePolicy } from "../features/password/policy.js"
import { CallbackRouteError } from "../kernel/errors/errors.js"
import { ALONGSIDE, FEATURE } from "../kernel/feature/feature.js"
import type { EmailServer } from "../kernel/mail/server.js"
import type { Awaitable } from "../kernel/types/awaitable.js"
import type { CredentialsRateLimitOptions } from "../kernel/types/rate-limit-options.js"
import { DEFAULT_FROM, deliverWithNodemailer } from "./nodemailer.js"

export type {
  PasswordConfig,
  PasswordMailPurpose,
  PasswordMessage,
  SendPasswordMailParams,
} from "../features/password/config.js"
export type {
  PasswordAlgorithm,
  PasswordHasher,
  PasswordHasherOptions,
} from "../features/password/hash.js"
export type { PasswordPolicyOptions } from "../features/password/policy.js"

export interface PasswordUserConfig extends PasswordPolicyOptions {
  /** Default `"password"`: the sign-in URL is `{basePath}/callback/<id>`. */
  id?: string
  name?: string
  /**
   * Unproven accounts cannot sign in (default `true`). Turning it off must be explicit: a
   * config that cannot send mail otherwise fails at start-up naming `server`.
   */
  requireEmailVerification?: boolean
  /** SMTP for the default sender (as the email provider's `server`). */
  server?: EmailServer
  /** The `From` header. */
  from?: string
  /** Send the mails yourself (an HTTP mail API on the edge); `params.message` is the default text. */
  sendPasswordMail?: (params: SendPasswordMailParams) => Awaitable<void>
  /** Seconds a sign-up verification link works. Default 3600 (an hour; "send the link again" mints a new one). */
  verificationMaxAge?: number
  /** Seconds a reset link works. Default 1800; at most 3600. */
  resetMaxAge?: number
  /** Seconds an email-change link works. Default 3600. */
  emailChangeMaxAge?: number
  /** Hashing: your own hasher, or options of the default one (argon2id / PBKDF2). */
  hasher?: PasswordHasher | PasswordHasherOptions
  /** Sign-in attempt limits (as the credentials provider's). */
  rateLimit?: CredentialsRateLimitOptions | false
  /** Limits of the mails sent (sign-up, resend, forgot). */
  mailRateLimit?: PasswordMailRateLimit | false
  /** Overrides `config.secret` for the links' MACs. */
  secret?: string | string[]
}

function isHasher(value: PasswordUserConfig["hasher"]): value is PasswordHasher {
  return typeof (value as PasswordHasher | undefined)?.hash === "function"
}

/** Build the password provider (`id` `"password"` unless given another). */
export default function Password(config: PasswordUserConfig = {}): PasswordConfig {
  const hasher = isHasher(config.hasher) ? config.hasher : createPasswordHasher(config.hasher)
  return {
    id: config.id ?? "password",
    name: config.name ?? "Password",
    type: "credentials",
    credentials: {
      email: { label: "Email", type: "email", autocomplete: "username" },
      password: { label: "Password", type: "password", autocomplete: "current-password" },
    },
    // The core signs in password accounts itself (`features/password/sign-in.ts`); this is reached
    // only if the provider object is used outside Latchkey's handler.
    authorize: () => {
      throw new CallbackRouteError("The Password provider is run by the core, not by authorize()")
    },
    ...(config.rateLimit !== undefined ? { rateLimit: config.rateLimit } : {}),
    passwordAccount: Object.freeze({
      requireEmailVerification: config.requireEmailVerification !== false,
      server: config.server,
      from: config.from,
      sendPasswordMail: config.sendPasswordMail ?? defaultSender(config.server, config.from),
      verificationMaxAge: config.verificationMaxAge ?? 60 * 60,
      resetMaxAge: config.resetMaxAge ?? 30 * 60,
      emailChangeMaxAge: config.emailChangeMaxAge ?? 60 * 60,
      policy: resolvePolicy(config),
      hasher,
      mailRateLimit: config.mailRateLimit ?? {},
      secret: config.secret,
    }),
    [FEATURE]: passwordFeature,
    // Changing or removing it is an account change: the account API comes with it.
    [ALONGSIDE]: [accountApiFeature],
  }
}

/** nodemailer over `server` when one is given (the email provider's transport). */
function defaultSender(
  server: EmailServer | undefined,
  from: string | undefined,
): ((params: SendPasswordMailParams) => Promise<void>) | undefined {
  if (server === undefined) return undefined
  return async ({ identifier, message }) => {
    await deliverWithNodemailer(server, from ?? DEFAULT_FROM, identifier, message)
  }
}

export { createPasswordHasher, Password }
