/**
 * The password in the account API (`POST {basePath}/account/<op>`, after the CSRF check, the
 * session and the recent-sign-in rule of `account-action.ts`):
 *
 * Every password event moves the account's state (docs/design/pending-grants.md): the user's
 * other sessions end, every pending link or second-factor step is void, and the current session
 * is re-issued at the new stamp.
 *
 * - `password-change` (`currentPassword`, `password`): the current password is checked (the
 *   sign-in limits count each try), the new one must pass the policy.
 * - `password-set` (`password`): for a user without one (signed in by a link, a provider or a
 *   passkey). Adds a sign-in method.
 * - `password-remove` (`currentPassword`, or `code` / `recoveryCode` of the second factor when it
 *   is on): under the last-method rule. Never on the session alone: otherwise removing and then
 *   setting a password would replace it without knowing it.
 * - `email-change` (`email`, and `currentPassword` when the user has one): mails a link to the
 *   new address (it takes effect when that link is confirmed, `password/email-change`) and a
 *   notice to the old one. An address another account holds gets no link, and the answer is
 *   the same.
 */

import { requireMethods } from "../../kernel/account/adapter-support.js"
import { countSignInMethods } from "../../kernel/account/sign-in-methods.js"
import { secondFactorOf } from "../../kernel/account/step-up.js"
import {
  CredentialsSignin,
  InvalidProvider,
  InvalidRequest,
  LastSignInMethod,
} from "../../kernel/errors/errors.js"
import { type KeptSession, moveAccountState } from "../../kernel/grants/account-state.js"
import { defer, type RequestContext } from "../../kernel/http/context.js"
import { normalizeIdentifier } from "../../kernel/mail/address.js"
import { enforceCredentialsLimits } from "../../kernel/rate-limit/credentials-limits.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
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
  userId: string
  /** The requesting session, kept when the change moves the account's state. */
  keep: KeptSession
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
  const { ctx, userId, body, keep } = input
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
      return moveAccountState(ctx.config, userId, "password-change", keep)
    }
    case "password-set": {
      if (stored !== null) {
        throw new InvalidRequest("This account has a password: use password-change")
      }
      const password = await checkNewPassword(body.password, settings.policy, user)
      await adapter.setPasswordHash(userId, await settings.hasher.hash(password))
      return moveAccountState(ctx.config, userId, "password-set", keep)
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
        without: "password",
      })
      if (others === 0) {
        throw new LastSignInMethod(
          "This is the last way to sign in to this account: add another one before removing it",
          { details: { remaining: 0 } },
        )
      }
      await checkPasswordOrSecondFactor(ctx, provider, user, stored, body)
      await adapter.deletePasswordHash(userId)
      return moveAccountState(ctx.config, userId, "password-remove", keep)
    }
    case "email-change": {
      if (stored !== null)
        await checkCurrent(ctx, provider, user.email, stored, body.currentPassword)
      const email = normalizeIdentifier(body.email)
      if (email === user.email) throw new InvalidRequest("This is already the account's address")
      await enforceMailRequestLimit(ctx, provider, "email change")
      // Whether another account holds the address shows in nothing the asker sees: the lookup,
      // the link and both mails come after the answer.
      defer(ctx, async () => {
        const holder = await ctx.config.adapter!.getUserByEmail!(email)
        if (holder) ctx.logger.debug("email change to an address another account holds")
        else await sendLinkMail(ctx, provider, { purpose: "email-change", userId, email })
        if (!user.email) return
        const notice = { to: user.email, url: undefined, expires: undefined }
        await sendPasswordMail(ctx, provider, { purpose: "email-change-notice", ...notice })
      })
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
 * What removing a password takes besides the session: the password itself, or a code of the
 * second factor when the user has one on. Two fields for the two; a code is checked only when
 * no password was sent.
 */
async function checkPasswordOrSecondFactor(
  ctx: RequestContext,
  provider: PasswordConfig,
  user: { id: string; email?: string | null },
  stored: string,
  body: Readonly<Record<string, unknown>>,
): Promise<void> {
  const { code, recoveryCode, currentPassword } = body
  const codeSent = typeof code === "string" || typeof recoveryCode === "string"
  if (currentPassword !== undefined || !codeSent) {
    await checkCurrent(ctx, provider, user.email, stored, currentPassword)
    return
  }
  const second = secondFactorOf(ctx.config)
  if (!second || !(await second.isEnabled(ctx.config, user.id))) {
    throw new InvalidRequest(
      "Removing the password needs the current password (a code works only with two-factor on)",
    )
  }
  await second.verify(ctx.config, user.id, {
    code: typeof code === "string" ? code : undefined,
    recoveryCode: typeof recoveryCode === "string" ? recoveryCode : undefined,
  })
}
