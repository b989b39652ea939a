/**
 * Email (magic link) providers: the `EmailConfig` shape every email provider has, and `Email`,
 * the Auth.js-compatible alias of {@link Nodemailer} with id `"email"`.
 *
 * The sign-in flow (`features/email`) depends only on the types (in `features/email/config.ts`, which
 * `nodemailer.ts` uses too), so it stays edge-portable: nodemailer is loaded when the default
 * SMTP sender actually sends. On an edge runtime, pass your own `sendVerificationRequest` (an HTTP mail API via `fetch`).
 *
 * @module @latchkey/core/providers/email
 */
import type { EmailConfig } from "../features/email/config.js"
import { Nodemailer, type NodemailerUserConfig } from "./nodemailer.js"

export type {
  EmailConfig,
  EmailRateLimitOptions,
  EmailServer,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "../features/email/config.js"

/**
 * Magic-link sign-in through SMTP, with id `"email"`: Auth.js's `Email` provider, kept so
 * configs written for it work unchanged. Same options as {@link Nodemailer}.
 */
export function Email(config: NodemailerUserConfig): EmailConfig {
  return { ...Nodemailer(config), id: config.id ?? "email", name: config.name ?? "Email" }
}

export default Email
