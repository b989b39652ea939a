/**
 * Mail through an HTTP API, for runtimes without SMTP (Cloudflare Workers, Vercel Edge, Deno
 * Deploy): one `fetch` per mail, nothing else, so it runs wherever the core does. An API is a
 * function from the message to the request it sends ({@link HttpMailApi}); Resend's is built in
 * (`providers/resend.ts`), and any other is one more such function.
 *
 * A failure is an `EmailSignInError` naming the API, the HTTP status and the API's own error
 * name when it is a plain identifier: never the API key, the message (it holds the sign-in
 * link) or the API's free-text answer (it may quote the address).
 */
import { EmailSignInError } from "../errors/errors.js"

/** One mail: the recipient, and the subject and bodies the core's templates wrote. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  html: string
}

export interface HttpMailOptions {
  /** The API key (Resend: `re_…`). */
  apiKey: string
  /** The `From` header; the API refuses addresses outside the domains it verified. */
  from: string
  /** Where the API is (tests, a self-hosted gateway, a compatible service). */
  baseUrl?: string
  /** Longest wait for the API, in ms. Default 10 000. */
  timeoutMs?: number
  /** The `fetch` to send with (default: the runtime's). */
  fetch?: typeof fetch
}

/** How an API wants a mail sent: the request for `message`. */
export interface HttpMailApi {
  /** Named in errors and logs. */
  name: string
  defaultBaseUrl: string
  request(
    message: MailMessage,
    options: HttpMailOptions,
  ): { path: string; headers: Record<string, string>; body: string }
}

/** Sends mails through an HTTP mail API. */
export interface MailSender {
  send(message: MailMessage): Promise<void>
}

const identifier = /^[a-z][a-z0-9_.-]{0,63}$/i

/** The API's error name (`validation_error`), when its JSON answer has a plain one. */
async function errorName(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.json()) as { name?: unknown } | null
    return typeof body?.name === "string" && identifier.test(body.name) ? body.name : undefined
  } catch {
    return undefined
  }
}

/**
 * What a refusal means for the sign-in: a 4xx about the recipient or the message is
 * `recipient-rejected` (the same answer another address would get: the core shows the same
 * page), anything else (the key, the service, the network) `transport`.
 */
function reasonOf(status: number): "recipient-rejected" | "transport" {
  return status === 422 || status === 400 ? "recipient-rejected" : "transport"
}

export function httpMailSender(api: HttpMailApi, options: HttpMailOptions): MailSender {
  const base = (options.baseUrl ?? api.defaultBaseUrl).replace(/\/+$/, "")
  const send = options.fetch ?? fetch
  return {
    async send(message) {
      const { path, headers, body } = api.request(message, options)
      let response: Response
      try {
        response = await send(`${base}${path}`, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        })
      } catch {
        // The cause (a DNS or TLS error, a timeout) is left out: it can carry the request.
        throw new EmailSignInError(`${api.name} could not be reached to send the mail`, {
          details: { api: api.name, reason: "transport" },
        })
      }
      if (response.ok) {
        await response.body?.cancel()
        return
      }
      const name = await errorName(response)
      throw new EmailSignInError(
        `${api.name} refused the mail: HTTP ${response.status}${name ? ` ${name}` : ""}`,
        {
          details: {
            api: api.name,
            status: response.status,
            reason: reasonOf(response.status),
            ...(name ? { code: name } : {}),
          },
        },
      )
    },
  }
}
