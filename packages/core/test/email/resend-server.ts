/**
 * A Resend-compatible HTTP API on loopback (`POST /emails`), answering as Resend does: 401
 * `missing_api_key` / `invalid_api_key`, 422 `validation_error`, 200 `{ id }`. The official
 * `resend` client talks to it (its `baseUrl`), which is how the tests know it is faithful.
 * Used by the core's tests and the Cloudflare fixture app's (e2e).
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedMail {
  from: string
  to: string[]
  subject: string
  text?: string
  html?: string
  /** The `Authorization` header the mail came with. */
  authorization: string
}

export interface ResendStandIn {
  baseUrl: string
  mails: ReceivedMail[]
  /** The next answers are this status (500: the service is down) until cleared. */
  failWith(status: number | undefined): void
  close(): Promise<void>
}

/** Addresses Resend refuses (as it refuses an invalid `to`). */
export const REFUSED_ADDRESS = /^refused@/

export async function startResendStandIn(apiKey: string): Promise<ResendStandIn> {
  const mails: ReceivedMail[] = []
  let failing: number | undefined
  const server: Server = createServer(async (req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body))
    }
    let raw = ""
    for await (const chunk of req) raw += chunk
    if (req.method !== "POST" || req.url !== "/emails") {
      return answer(404, { statusCode: 404, name: "not_found", message: "Not found" })
    }
    if (failing) return answer(failing, { statusCode: failing, name: "application_error" })
    const authorization = req.headers.authorization ?? ""
    if (!authorization) {
      return answer(401, { statusCode: 401, name: "missing_api_key", message: "Missing API key" })
    }
    if (authorization !== `Bearer ${apiKey}`) {
      return answer(403, {
        statusCode: 403,
        name: "invalid_api_key",
        message: "API key is invalid",
      })
    }
    let body: Partial<ReceivedMail> & { to?: string | string[] }
    try {
      body = JSON.parse(raw)
    } catch {
      return answer(422, { statusCode: 422, name: "validation_error", message: "Invalid JSON" })
    }
    const to = typeof body.to === "string" ? [body.to] : body.to
    const valid =
      typeof body.from === "string" &&
      Array.isArray(to) &&
      to.length > 0 &&
      !to.some((address) => REFUSED_ADDRESS.test(address)) &&
      typeof body.subject === "string" &&
      (typeof body.html === "string" || typeof body.text === "string")
    if (!valid) {
      // Resend quotes the offending value in its message: the sender must not log it.
      return answer(422, {
        statusCode: 422,
        name: "validation_error",
        message: `Invalid \`to\` field: ${JSON.stringify(body.to)}`,
      })
    }
    mails.push({ ...(body as ReceivedMail), to: to!, authorization })
    answer(200, { id: crypto.randomUUID() })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    mails,
    failWith: (status) => {
      failing = status
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
