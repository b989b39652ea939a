import { MemoryAdapter } from "../../src/adapters/memory.js"
import type { RequestEmailSignInParams } from "../../src/features/email/request.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import type { EmailConfig, SendVerificationRequestParams } from "../../src/providers/email.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"

export const SECRET = "a-test-secret-that-is-long-enough-0123456789"
export const ORIGIN = "https://app.example.com"

/** The account state the direct calls run under: no account's state ever moved. */
export const stampOf = async (_userId: string): Promise<number> => 0

/** A provider whose sender records the mails instead of sending them. */
export function capturingProvider(overrides: Partial<EmailConfig> = {}) {
  const sent: SendVerificationRequestParams[] = []
  const provider = Nodemailer({
    sendVerificationRequest: (params) => {
      sent.push(params)
    },
    // A fresh store per test: the process-wide default would carry counts between tests.
    rateLimit: { store: new MemoryRateLimitStore() },
    ...overrides,
  })
  return { provider, sent }
}

export function requestParams(
  provider: EmailConfig,
  adapter: Adapter,
  overrides: Partial<RequestEmailSignInParams> = {},
): RequestEmailSignInParams {
  return {
    provider,
    email: "Ann@Example.com",
    adapter,
    secret: SECRET,
    callbackUrl: `${ORIGIN}/dashboard`,
    origin: ORIGIN,
    basePath: "/auth",
    theme: {},
    request: new Request(`${ORIGIN}/auth/signin/${provider.id}`, { method: "POST" }),
    ip: "203.0.113.7",
    stampOf,
    ...overrides,
  }
}

/** `token` and `email` of a sign-in link. */
export function linkParams(url: string): { token: string; email: string; callbackUrl: string } {
  const { searchParams } = new URL(url)
  return {
    token: searchParams.get("token") ?? "",
    email: searchParams.get("email") ?? "",
    callbackUrl: searchParams.get("callbackUrl") ?? "",
  }
}

export { MemoryAdapter }
