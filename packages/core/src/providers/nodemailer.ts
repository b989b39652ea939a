/**
 * Magic-link sign-in sending mail over SMTP with nodemailer.
 *
 * Node-only by nature (SMTP needs TCP sockets): nodemailer is imported when a mail is sent, not
 * when this module loads, so a config naming this provider still loads on any runtime.
 *
 * @module @latchkey/core/providers/nodemailer
 */

import type {
  EmailConfig,
  EmailServer,
  EmailUserConfig,
  SendVerificationRequestParams,
} from "../features/email/config.js"
import { emailFeature } from "../features/email/index.js"
import { signInMessage } from "../features/email/message.js"
import { EmailSignInError, InvalidParameter } from "../kernel/errors/errors.js"
import { FEATURE } from "../kernel/feature/feature.js"
import { DEFAULT_EMAIL_MAX_AGE } from "../kernel/grants/link-token.js"

export type NodemailerUserConfig = EmailUserConfig

/** The module names, as values: see `loadNodemailer`. */
const NODEMAILER = "nodemailer"
const NODE_MODULE = "node:module"
const NODE_URL = "node:url"

type NodemailerModule = typeof import("nodemailer")

/**
 * nodemailer, through a specifier bundlers cannot follow: it (and the node:* modules it imports)
 * stays out of the bundles of the edge runtimes, where a `Password` provider with its own
 * `sendPasswordMail` never calls this. workerd refuses a bundle that names a module it lacks
 * even when nothing imports it at run time (a Cloudflare Pages app failed to start).
 *
 * Such a specifier is resolved from the file that runs it, which in an app's server build is the
 * app's bundle, not `@latchkey/core`. Where npm nested nodemailer under `@latchkey/core` (another
 * package's peer range for it took the top-level slot: `@auth/core` in a migrating app), it is
 * not found from there; it is then resolved from `@latchkey/core`'s own directory.
 */
async function loadNodemailer(): Promise<NodemailerModule> {
  try {
    return (await import(/* @vite-ignore */ NODEMAILER)) as NodemailerModule
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error
    const { createRequire } = (await import(
      /* @vite-ignore */ NODE_MODULE
    )) as typeof import("node:module")
    const fromHere = createRequire(import.meta.url)
    const core = fromHere.resolve("@latchkey/core/package.json")
    const nested = createRequire(core).resolve(NODEMAILER)
    const { pathToFileURL } = (await import(
      /* @vite-ignore */ NODE_URL
    )) as typeof import("node:url")
    return (await import(/* @vite-ignore */ pathToFileURL(nested).href)) as NodemailerModule
  }
}

/** Used when no `from` is configured. Set your own: most servers refuse other domains. */
export const DEFAULT_FROM = "Latchkey <no-reply@localhost>"

/**
 * Magic-link provider sending through SMTP. `server` (an SMTP URL or nodemailer transport
 * options) is required unless you pass your own `sendVerificationRequest`.
 *
 * ```ts
 * Nodemailer({ server: process.env.EMAIL_SERVER, from: "Acme <login@acme.test>" })
 * ```
 */
export function Nodemailer(config: NodemailerUserConfig): EmailConfig {
  if (config.server === undefined && config.sendVerificationRequest === undefined) {
    throw new InvalidParameter(
      "server",
      "is required by the Nodemailer provider: pass an SMTP URL (smtp://user:pass@host:587) or nodemailer transport options, or your own sendVerificationRequest",
    )
  }
  return {
    id: "nodemailer",
    name: "Nodemailer",
    from: DEFAULT_FROM,
    maxAge: DEFAULT_EMAIL_MAX_AGE,
    sendVerificationRequest: sendWithNodemailer,
    ...withoutUndefined(config),
    type: "email",
    options: config,
    [FEATURE]: emailFeature,
  }
}

// `{ maxAge: undefined }` from an unset env variable must not erase the default.
function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}

/**
 * The default `sendVerificationRequest`: one mail with a plain-text and an HTML part. Throws
 * {@link EmailSignInError} when the server refuses the recipient (`details.reason:
 * "recipient-rejected"`) or the mail cannot be handed over at all (`"transport"`).
 */
export async function sendWithNodemailer(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, provider, theme } = params
  if (provider.server === undefined) {
    throw new InvalidParameter("server", "is required to send mail with nodemailer")
  }
  try {
    const info = await deliverWithNodemailer(
      provider.server,
      provider.from ?? DEFAULT_FROM,
      identifier,
      signInMessage({ url, theme }),
    )
    const refused = [...(info.rejected ?? []), ...(info.pending ?? [])]
    if (refused.length > 0) {
      throw new EmailSignInError("The mail server refused the recipient", {
        details: { provider: provider.id, reason: "recipient-rejected" },
      })
    }
  } catch (error) {
    if (error instanceof EmailSignInError) throw error
    throw new EmailSignInError("The sign-in mail could not be sent", {
      cause: error,
      details: { provider: provider.id, reason: mailErrorReason(error) },
    })
  }
}

/**
 * One mail through nodemailer over `server`, the transport closed after. Shared by the email
 * provider and the Password provider's default sender; lives here, outside the core's main
 * entry, so nodemailer (Node-only) is imported by provider modules alone and never reaches a
 * client bundle that imports `@latchkey/core`.
 */
export async function deliverWithNodemailer(
  server: EmailServer,
  from: string,
  to: string,
  message: { subject: string; text: string; html: string },
): Promise<{ rejected?: unknown[]; pending?: unknown[] }> {
  const { createTransport } = await loadNodemailer()
  const transport = createTransport(server)
  try {
    // The address as an object, so nodemailer does not parse it as an address list.
    return await transport.sendMail({ to: { name: "", address: to }, from, ...message })
  } finally {
    transport.close()
  }
}

/**
 * nodemailer reports a refused `RCPT TO` as `EENVELOPE` with an SMTP response code (5xx
 * permanent, 4xx temporary); anything else (connection, TLS, authentication, DNS) is a
 * transport problem that no address could get past.
 */
function mailErrorReason(error: unknown): "recipient-rejected" | "transport" {
  const e = error as { code?: unknown; command?: unknown; rejected?: unknown } | null
  if (e && (e.code === "EENVELOPE" || e.command === "RCPT TO")) return "recipient-rejected"
  return "transport"
}

export default Nodemailer
