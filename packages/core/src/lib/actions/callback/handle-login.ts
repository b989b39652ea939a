/**
 * Who is signing in, once the `signIn` callback agreed: with an adapter, find, link or create
 * the user and account (Auth.js v5 rules, reference §6.2/§6.3); without one, the provider's
 * user as given. One small function per provider kind.
 */
import type { AdapterAccount, AdapterUser } from "../../../adapters.js"
import { OAuthAccountNotLinked } from "../../../errors.js"
import type { ProviderConfig, ProviderType } from "../../../providers/index.js"
import type { Account, User } from "../../../types.js"
import type { RequestContext } from "../../context.js"
import { emitEvent } from "../../events.js"
import { sessionContext } from "../../session/from-request.js"
import { decodeSessionCookie } from "../../session/jwt-session.js"
import type { SignInAttempt } from "./complete-sign-in.js"

export interface ResolvedLogin {
  user: User
  account: Account | null
  isNewUser: boolean
}

type LoginResolver = (
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
) => Promise<ResolvedLogin>

/** Credentials: the app's `authorize` is the source of truth; no adapter writes. */
const asGiven: LoginResolver = async (_ctx, _provider, attempt) => ({
  user: attempt.user,
  account: attempt.account,
  isNewUser: false,
})

const resolvers: Record<ProviderType, LoginResolver> = {
  credentials: asGiven,
  oauth: resolveAccountLogin,
  oidc: resolveAccountLogin,
  webauthn: resolveAccountLogin,
  email: resolveEmailLogin,
}

export function resolveLogin(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<ResolvedLogin> {
  return resolvers[provider.type](ctx, provider, attempt)
}

/** The user of the request's current session, if any (for linking a new account to them). */
async function currentUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const adapter = ctx.config.adapter!
  const name = ctx.cookies.sessionToken.name
  if (ctx.config.session.strategy === "jwt") {
    const token = await decodeSessionCookie(sessionContext(ctx))
    return token?.sub ? ((await adapter.getUser?.(token.sub)) ?? null) : null
  }
  const sessionToken = ctx.parsed.cookies[name]
  if (!sessionToken) return null
  const found = await adapter.getSessionAndUser?.(sessionToken)
  return found && found.session.expires.valueOf() > Date.now() ? found.user : null
}

/**
 * OAuth/OIDC (and WebAuthn) with an adapter:
 *
 * | account known? | signed in?                | outcome                                  |
 * |----------------|---------------------------|------------------------------------------|
 * | yes, same user | yes                       | that user                                |
 * | yes, other     | yes                       | `OAuthAccountNotLinked`                  |
 * | yes            | no                        | the account's user                       |
 * | no             | yes                       | link to the signed-in user               |
 * | no             | no, email of a known user | link only if `allowDangerousEmailAccountLinking` and the provider did not say the email is unverified; else `OAuthAccountNotLinked` |
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

  const signedIn = await currentUser(ctx)
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  const owner = await adapter.getUserByAccount!(key)

  if (owner) {
    if (signedIn && signedIn.id !== owner.id) {
      throw new OAuthAccountNotLinked("This account is already linked to another user", {
        details: { provider: account.provider },
      })
    }
    return { user: owner, account, isNewUser: false }
  }

  const link = async (user: AdapterUser) => {
    const row = { ...account, userId: user.id, type: account.type } as AdapterAccount
    await adapter.linkAccount!(row)
    await emitEvent(events, logger, "linkAccount", { user, account })
  }

  if (signedIn) {
    await link(signedIn)
    return { user: signedIn, account, isNewUser: false }
  }

  const email = attempt.user.email ?? undefined
  const byEmail = email ? await adapter.getUserByEmail!(email) : null
  if (byEmail) {
    const allowed =
      (provider as { allowDangerousEmailAccountLinking?: boolean })
        .allowDangerousEmailAccountLinking === true
    if (!allowed || attempt.profile?.email_verified === false) {
      throw new OAuthAccountNotLinked(
        "Another account already uses this email; sign in with it, then link this provider",
        { details: { provider: account.provider } },
      )
    }
    await link(byEmail)
    return { user: byEmail, account, isNewUser: false }
  }

  const created = await adapter.createUser!({
    ...attempt.user,
    id: crypto.randomUUID(),
    email: email ?? "",
    emailVerified: null,
  } as AdapterUser)
  await emitEvent(events, logger, "createUser", { user: created })
  await link(created)
  return { user: created, account, isNewUser: true }
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
  const { events } = ctx.config
  const now = new Date()
  const existing = await adapter.getUserByEmail!(email)
  if (existing) {
    const updated = await adapter.updateUser!({ id: existing.id, emailVerified: now })
    await emitEvent(events, ctx.logger, "updateUser", { user: updated })
    return { user: updated, account: attempt.account, isNewUser: false }
  }
  const created = await adapter.createUser!({
    ...attempt.user,
    id: attempt.user.id ?? crypto.randomUUID(),
    email,
    emailVerified: now,
  } as AdapterUser)
  await emitEvent(events, ctx.logger, "createUser", { user: created })
  return { user: created, account: attempt.account, isNewUser: true }
}
