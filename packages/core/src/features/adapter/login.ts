/**
 * Who is signing in, once the `signIn` callback agreed, among the adapter's rows: find, link,
 * create or claim the user and account (Auth.js v5 rules, reference §6.2/§6.3). One small
 * function per provider kind. Without an adapter the kernel takes the provider's user as given
 * (`kernel/sign-in/handle-login.ts`), and none of this is bundled.
 */

import { claimAddress } from "../../kernel/account/claim.js"
import { currentSessionOf } from "../../kernel/account/current-session.js"
import {
  markVerified,
  type OwnershipOutcome,
  proveEmail,
} from "../../kernel/account/email-ownership.js"
import { assertStepUp } from "../../kernel/account/step-up.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import {
  AccessDenied,
  AccountNotLinked,
  OAuthAccountNotLinked,
} from "../../kernel/errors/errors.js"
import { emitEvent } from "../../kernel/events/emit.js"
import { featureOf } from "../../kernel/feature/feature.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { decideAccountLinking } from "../../kernel/sign-in/account-linking.js"
import {
  asGiven,
  type LoginResolver,
  type ResolvedLogin,
  signedInUser,
} from "../../kernel/sign-in/handle-login.js"
import type { AdapterAccount, AdapterUser } from "../../kernel/types/adapters.js"
import type { ProviderConfig, ProviderType } from "../../kernel/types/provider.js"
import type { Account } from "../../kernel/types/records.js"
import type { SignInAttempt } from "../../kernel/types/sign-in-attempt.js"

const NOT_LINKED_MESSAGES = {
  "account-of-other-user": "This account is already linked to another user",
  "email-in-use":
    "Another account already uses this email; sign in with it, then link this provider",
  "email-not-verified":
    "Another account already uses this email, and the provider does not confirm you own it",
} as const

/**
 * OAuth/OIDC (and WebAuthn) with an adapter:
 *
 * | account known? | signed in?                | outcome                                  |
 * |----------------|---------------------------|------------------------------------------|
 * | yes, same user | yes                       | that user                                |
 * | yes, other     | yes                       | `OAuthAccountNotLinked`                  |
 * | yes            | no                        | the account's user                       |
 * | no             | yes                       | link to the signed-in user               |
 * | no             | no, email of an unproven user, provider vouches for it | claim the row (kernel/account/claim.ts), link |
 * | no             | no, email of a proven user | link only if `allowDangerousEmailAccountLinking` and the provider reports the email verified; else `OAuthAccountNotLinked` |
 * | no             | no, unknown email         | create user + link (`isNewUser`)         |
 *
 * Unlike Auth.js, linking by email does not fire `createUser` (no user was created).
 */
async function resolveAccountLogin(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<ResolvedLogin> {
  const adapter = ctx.config.adapter
  const account = attempt.account
  if (!adapter || !account) return asGiven(ctx, provider, attempt)
  const { events } = ctx.config
  const { logger } = ctx

  // OAuth: the state check already refused a callback arriving in another browser session, so
  // this is the session that started the flow (features/oauth/checks.ts).
  const signedIn = await signedInUser(ctx)
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  const accountUser = await adapter.getUserByAccount!(key)
  const email = attempt.user.email || undefined
  const emailVerified = attempt.emailVerified === true && email !== undefined
  // A proof of the email is applied first (kernel/account/email-ownership.ts): from the row
  // itself it confirms the row's address; from elsewhere, when it signs the prover in by that
  // email (an unknown account, nobody signed in), it claims the unproven row.
  const proof = emailVerified ? await proveEmail(ctx, email, accountUser ?? signedIn) : undefined
  if (proof?.kind === "claim" && !accountUser && !signedIn) {
    const claimed = await claimAddress(ctx, proof.user, {
      proof: "provider",
      provider: provider.id,
    })
    // The claim removed every account linked before: this one joins a row only the prover holds.
    await linkAccount(ctx, provider, account, claimed.user)
    return { user: claimed.user, account, isNewUser: false }
  }
  // The email lookup only matters for an unknown account and nobody signed in.
  const userWithSameEmail =
    accountUser || signedIn || !email ? null : await rowWithEmail(ctx, email, proof)
  const decision = decideAccountLinking({
    accountUser,
    signedInUser: signedIn,
    userWithSameEmail,
    allowDangerousEmailAccountLinking:
      (provider as { allowDangerousEmailAccountLinking?: boolean })
        .allowDangerousEmailAccountLinking === true,
    emailVerified,
  })

  const link = (user: AdapterUser) => linkAccount(ctx, provider, account, user)

  switch (decision.kind) {
    case "error-not-linked": {
      // Auth.js's types: a passkey that cannot be linked is `AccountNotLinked`.
      const NotLinked = provider.type === "webauthn" ? AccountNotLinked : OAuthAccountNotLinked
      throw new NotLinked(NOT_LINKED_MESSAGES[decision.reason], {
        details: { provider: account.provider, reason: decision.reason },
      })
    }
    case "sign-in-existing":
      await featureOf(provider)?.session?.signedInAgain?.(ctx.config, provider, account)
      return { user: decision.user, account, isNewUser: false }
    case "link-to-current": {
      // Adding a way to sign in is an account change: a recent sign-in (with the second
      // factor when it is on), counted against the user's limit (a passkey counted when its
      // options were asked for).
      const current = await currentSessionOf(ctx)
      if (!current.signedIn) throw new AccessDenied("The session ended during the sign-in")
      await assertStepUp(ctx.config, current)
      if (provider.type !== "webauthn") await countAccountChange(ctx, current.userId)
      await link(decision.user)
      // The session goes on as read (a re-issue while it was read keeps its `auth_time`).
      const linkedToCurrent = { cookies: current.cookies }
      return { user: decision.user, account, isNewUser: false, linkedToCurrent }
    }
    case "link-by-email":
      await link(decision.user)
      return { user: decision.user, account, isNewUser: false }
    case "create":
      break
  }

  const created = await adapter.createUser!({
    ...attempt.user,
    id: crypto.randomUUID(),
    email: email ?? "",
    // A provider that vouches for the email proves it.
    emailVerified: emailVerified ? new Date() : null,
  } as AdapterUser)
  await emitEvent(events, logger, "createUser", { user: created })
  await link(created)
  return { user: created, account, isNewUser: true }
}

/** Links the provider's `account` to `user`, and fires `linkAccount`. */
async function linkAccount(
  ctx: RequestContext,
  provider: ProviderConfig,
  account: Account,
  user: AdapterUser,
): Promise<void> {
  const row = { ...account, userId: user.id, type: account.type } as AdapterAccount
  const stored = featureOf(provider)?.session?.accountRow
  await ctx.config.adapter!.linkAccount!(stored ? await stored(ctx.config, provider, row) : row)
  await emitEvent(ctx.config.events, ctx.logger, "linkAccount", { user, account })
}

/** The row with `email`: the one the proof already looked up, else a lookup of its own. */
async function rowWithEmail(
  ctx: RequestContext,
  email: string,
  proof: OwnershipOutcome | undefined,
): Promise<AdapterUser | null> {
  if (proof) return proof.kind === "none" ? null : proof.user
  return ctx.config.adapter!.getUserByEmail!(email)
}

/**
 * Email sign-in (the link was verified): mark the known user's email verified, or create the
 * user. No account row is written for email (as in Auth.js).
 */
async function resolveEmailLogin(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<ResolvedLogin> {
  const adapter = ctx.config.adapter
  const email = attempt.user.email
  if (!adapter || !email) return asGiven(ctx, provider, attempt)
  // The link proved the mailbox (kernel/account/email-ownership.ts).
  const proof = await proveEmail(ctx, email, await signedInUser(ctx))
  switch (proof.kind) {
    case "claim": {
      // Nobody had proved the address: the link's proof claims the row (kernel/account/claim.ts).
      const claimed = await claimAddress(ctx, proof.user, {
        proof: "email-link",
        provider: provider.id,
      })
      return { user: claimed.user, account: attempt.account, isNewUser: false }
    }
    case "verify-own":
      return { user: proof.user, account: attempt.account, isNewUser: false }
    case "owned":
      // As Auth.js: every email sign-in refreshes `emailVerified`.
      return {
        user: await markVerified(ctx, proof.user),
        account: attempt.account,
        isNewUser: false,
      }
    case "none":
      break
  }
  // Built from the address alone (`attempt.user` is the verifier's placeholder).
  const created = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date(),
  } as AdapterUser)
  await emitEvent(ctx.config.events, ctx.logger, "createUser", { user: created })
  return { user: created, account: attempt.account, isNewUser: true }
}

const resolvers: Record<ProviderType, LoginResolver> = {
  // Credentials: the app's `authorize` is the source of truth; no adapter writes.
  credentials: asGiven,
  oauth: resolveAccountLogin,
  oidc: resolveAccountLogin,
  webauthn: resolveAccountLogin,
  email: resolveEmailLogin,
}

/** Who is signing in with `provider`, among the adapter's rows. */
export const resolveAdapterLogin: LoginResolver = (ctx, provider, attempt) =>
  resolvers[provider.type](ctx, provider, attempt)
