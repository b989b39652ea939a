/**
 * The password in the account API (`POST {basePath}/account/<op>`, after the CSRF check, the
 * session and the recent-sign-in rule of `account-action.ts`):
 *
 * - `password-change` (`currentPassword`, `password`): the current password is checked (the
 *   sign-in limits count each try), the new one must pass the policy; the user's other
 *   sessions end and the current one is re-issued.
 * - `password-set` (`password`): for a user without one (signed in by a link, a provider or a
 *   passkey). Adds a sign-in method; no session changes.
 * - `password-remove`: under the last-method rule.
 * - `email-change` (`email`, and `currentPassword` when the user has one): mails a link to the
 *   new address (it takes effect when that link is confirmed, `password/email-change`) and a
 *   notice to the old one. An address another account holds gets no link, and the answer is
 *   the same.
 */
import {
  CredentialsSignin,
  InvalidProvider,
  InvalidRequest,
  LastSignInMethod,
} from "../../errors.js"
import type { JWT } from "../../jwt.js"
import type { ResponseCookie } from "../../types.js"
import { requireMethods } from "../account/adapter-support.js"
import { revokeOtherDeviceSessions } from "../account/device-sessions.js"
import { countSignInMethods } from "../account/sign-in-methods.js"
import type { RequestContext } from "../context.js"
import { normalizeIdentifier } from "../email/normalize-identifier.js"
import { enforceCredentialsLimits } from "../rate-limit/credentials-limits.js"
import type { SessionContext } from "../session/context.js"
import { findPasswordProvider, type PasswordConfig } from "./config.js"
import { enforceMailRequestLimit, sendLinkMail, sendPasswordMail } from "./mail.js"
import { checkNewPassword } from "./policy.js"
import { typedPassword, verifyPassword } from "./verify.js"

export const PASSWORD_ACCOUNT_OPS = [
  "password-set",
  "password-change",
  "password-remove",
  "email-change",
] as const

export type PasswordAccountOp = (typeof PASSWORD_ACCOUNT_OPS)[number]

export interface PasswordOpInput {
  ctx: RequestContext
  sctx: SessionContext
  userId: string
  sessionId: string | undefined
  token: JWT | null
  body: Readonly<Record<string, unknown>>
}

/** The Password provider, or `InvalidProvider` (400) when the app has none. */
export function requirePasswordProvider(ctx: Pick<RequestContext, "config">): PasswordConfig {
  const provider = findPasswordProvider(ctx.config.providers)
  if (!provider) {
    throw new InvalidProvider(
      "Password changes need the Password provider (@latchkey/core/providers/password)",
    )
  }
  return provider
}

export async function runPasswordAccountOp(
  op: PasswordAccountOp,
  input: PasswordOpInput,
): Promise<ResponseCookie[]> {
  const { ctx, userId, body } = input
  const provider = requirePasswordProvider(ctx)
  const settings = provider.passwordAccount
  const adapter = requireMethods(ctx.config, [
    "getUser",
    "getPasswordHash",
    "setPasswordHash",
    "deletePasswordHash",
  ])
  const user = await adapter.getUser(userId)
  if (!user) throw new InvalidRequest("The signed-in user no longer exists")
  const stored = await adapter.getPasswordHash(userId)

  switch (op) {
    case "password-change": {
      if (stored === null) {
        throw new InvalidRequest("This account has no password yet: use password-set")
      }
      await checkCurrent(ctx, provider, user.email, stored, body.currentPassword)
      const password = await checkNewPassword(body.password, settings.policy, user)
      await adapter.setPasswordHash(userId, await settings.hasher.hash(password))
      ctx.logger.debug("password changed", { provider: provider.id })
      return endOtherSessions(input)
    }
    case "password-set": {
      if (stored !== null) {
        throw new InvalidRequest("This account has a password: use password-change")
      }
      const password = await checkNewPassword(body.password, settings.policy, user)
      await adapter.setPasswordHash(userId, await settings.hasher.hash(password))
      return []
    }
    case "password-remove": {
      if (stored === null) throw new InvalidRequest("This account has no password to remove")
      const methods = requireMethods(ctx.config, [
        "listAuthenticatorsByUserId",
        "listAccountsByUserId",
      ])
      const [passkeys, accounts] = await Promise.all([
        methods.listAuthenticatorsByUserId(userId),
        methods.listAccountsByUserId(userId),
      ])
      const others = await countSignInMethods(ctx.config, user, passkeys, accounts, {
        withoutPassword: true,
      })
      if (others === 0) {
        throw new LastSignInMethod(
          "This is the last way to sign in to this account: add another one before removing it",
          { details: { remaining: 0 } },
        )
      }
      await adapter.deletePasswordHash(userId)
      return []
    }
    case "email-change": {
      if (stored !== null)
        await checkCurrent(ctx, provider, user.email, stored, body.currentPassword)
      const email = normalizeIdentifier(body.email)
      if (email === user.email) throw new InvalidRequest("This is already the account's address")
      await enforceMailRequestLimit(ctx, provider, "email change")
      const holder = await ctx.config.adapter!.getUserByEmail!(email)
      if (holder) {
        // Refused without saying so: the answer and the notice are the same.
        ctx.logger.debug("email change to an address another account holds")
      } else {
        await sendLinkMail(ctx, provider, { purpose: "email-change", userId, email })
      }
      if (user.email) {
        await sendPasswordMail(ctx, provider, {
          purpose: "email-change-notice",
          to: user.email,
          url: undefined,
          expires: undefined,
        })
      }
      return []
    }
  }
}

/**
 * The current password, checked under the sign-in limits (per account and per IP), so a
 * borrowed signed-in browser cannot guess it faster than the sign-in form allows.
 */
async function checkCurrent(
  ctx: RequestContext,
  provider: PasswordConfig,
  email: string | null | undefined,
  stored: string,
  value: unknown,
): Promise<void> {
  const settings = provider.passwordAccount
  const succeeded = await enforceCredentialsLimits(ctx, provider, { email: email ?? "" })
  const typed = typedPassword(value, settings.policy.maxBytes)
  if (
    typed === null ||
    typed.password === "" ||
    !(await verifyPassword(settings.hasher, stored, typed))
  ) {
    throw new CredentialsSignin("The current password is wrong", {
      details: { provider: provider.id, reason: "wrong-current-password" },
    })
  }
  await succeeded()
}

/**
 * Ends the user's other sessions and re-issues the current one. With JWT sessions and
 * `session.revocation: "off"` nothing can end them: the change stands, and the log says so.
 */
async function endOtherSessions(input: PasswordOpInput): Promise<ResponseCookie[]> {
  const { sctx, userId, sessionId, token, ctx } = input
  const { session } = ctx.config
  if (session.strategy === "jwt" && session.revocation === "off") {
    ctx.logger.debug("password changed; other JWT sessions live on (revocation off)")
    return []
  }
  return revokeOtherDeviceSessions(sctx, userId, sessionId, token)
}
