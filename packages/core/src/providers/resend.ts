/**
 * Mail through Resend's HTTP API (`POST /emails`), with `fetch` only: email-link sign-in on any
 * runtime, SMTP or not, and the sender of the `Password` provider's mails.
 *
 * `Resend` keeps the options of Auth.js's `Resend` provider (`apiKey`, `from`, `maxAge`, `id`,
 * `name`, `sendVerificationRequest`, `normalizeIdentifier`, …; `apiKey` from `AUTH_RESEND_KEY`
 * through `setEnvDefaults`), plus `baseUrl`. As every Latchkey email provider, a link works for 10
 * minutes unless `maxAge` says otherwise (Auth.js's `Resend`: 24 hours).
 *
 * ```ts
 * import Resend, { resendMail } from "@latchkey/core/providers/resend"
 * import Password from "@latchkey/core/providers/password"
 *
 * const mail = resendMail({ apiKey: env.get("AUTH_RESEND_KEY")!, from: "Acme <login@acme.test>" })
 * providers: [Resend({ from: "Acme <login@acme.test>" }), Password({ sendPasswordMail: mail.sendPasswordMail })]
 * ```
 *
 * @module @latchkey/core/providers/resend
 */

import type {
  EmailConfig,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "../features/email/config.js"
import { emailFeature } from "../features/email/index.js"
import { signInMessage } from "../features/email/message.js"
import type { SendPasswordMailParams } from "../features/password/config.js"
import { InvalidParameter } from "../kernel/errors/errors.js"
import { FEATURE } from "../kernel/feature/feature.js"
import { DEFAULT_EMAIL_MAX_AGE } from "../kernel/grants/link-token.js"
import {
  type HttpMailApi,
  type HttpMailOptions,
  httpMailSender,
  type MailMessage,
  type MailSender,
} from "../kernel/mail/http-mail.js"
import { DEFAULT_FROM } from "./nodemailer.js"

export type {
  HttpMailApi,
  HttpMailOptions,
  MailMessage,
  MailSender,
} from "../kernel/mail/http-mail.js"

/** Resend's `POST /emails`: a bearer key and a JSON message. */
export const resendApi: HttpMailApi = {
  name: "Resend",
  defaultBaseUrl: "https://api.resend.com",
  request: (message, options) => ({
    path: "/emails",
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      from: options.from,
      to: [message.to],
      subject: message.subject,
      text: message.text,
      html: message.html,
    }),
  }),
}

/** A sender through Resend, with the two hooks the core's providers take. */
export interface ResendMail extends MailSender {
  /** For `Password({ sendPasswordMail })`: the core's template for each purpose. */
  sendPasswordMail(params: SendPasswordMailParams): Promise<void>
  /** For an email provider's `sendVerificationRequest`: the core's sign-in mail. */
  sendVerificationRequest(params: SendVerificationRequestParams): Promise<void>
}

/** Mail through Resend with `options` (the key, the sender, optionally `baseUrl`). */
export function resendMail(options: HttpMailOptions): ResendMail {
  if (!options.apiKey) {
    throw new InvalidParameter(
      "apiKey",
      "is required to send mail through Resend (AUTH_RESEND_KEY)",
    )
  }
  const sender = httpMailSender(resendApi, options)
  return {
    send: (message: MailMessage) => sender.send(message),
    sendPasswordMail: ({ identifier, message }) => sender.send({ to: identifier, ...message }),
    sendVerificationRequest: ({ identifier, url, theme }) =>
      sender.send({ to: identifier, ...signInMessage({ url, theme }) }),
  }
}

/** What an app passes to `Resend(…)`: Auth.js's options, plus where the API is. */
export type ResendUserConfig = EmailUserConfig & Pick<HttpMailOptions, "baseUrl" | "timeoutMs">

/** Email-link sign-in with mails sent through Resend's HTTP API. */
export default function Resend(config: ResendUserConfig = {}): EmailConfig {
  const { baseUrl, timeoutMs, ...emailConfig } = config
  return {
    id: "resend",
    name: "Resend",
    from: DEFAULT_FROM,
    maxAge: DEFAULT_EMAIL_MAX_AGE,
    // The key is read when a mail is sent: `setEnvDefaults` fills it in after this call.
    sendVerificationRequest: (params) => {
      const { apiKey, from } = params.provider
      if (!apiKey) {
        throw new InvalidParameter(
          `providers["${params.provider.id}"].apiKey`,
          "is required to send mail through Resend: set AUTH_RESEND_KEY or pass apiKey",
        )
      }
      return resendMail({
        apiKey,
        from: from ?? DEFAULT_FROM,
        baseUrl,
        timeoutMs,
      }).sendVerificationRequest(params)
    },
    ...Object.fromEntries(Object.entries(emailConfig).filter(([, v]) => v !== undefined)),
    type: "email",
    options: config,
    [FEATURE]: emailFeature,
  }
}

export { Resend }
