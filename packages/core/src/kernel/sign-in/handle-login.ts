/**
 * Who is signing in, once the `signIn` callback agreed. With an adapter, its feature finds,
 * links, creates or claims the user among the adapter's rows (`features/adapter/login.ts`,
 * Auth.js v5 rules); without one, the provider's user is taken as given. The adapter brings
 * that code, so an app without one does not bundle it.
 */

import { currentSessionOf } from "../account/current-session.js"
import { adapterLoginOf, type LoginResolver, type ResolvedLogin } from "../feature/feature.js"
import type { RequestContext } from "../http/context.js"
import type { AdapterUser } from "../types/adapters.js"
import type { ProviderConfig } from "../types/provider.js"
import type { SignInAttempt } from "../types/sign-in-attempt.js"

export type { LoginResolver, ResolvedLogin }

/** The provider's user as given: no adapter, or credentials (the app's `authorize` decides). */
export const asGiven: LoginResolver = async (_ctx, _provider, attempt) => ({
  user: attempt.user,
  account: attempt.account,
  isNewUser: false,
})

export function resolveLogin(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<ResolvedLogin> {
  const resolver = ctx.config.adapter ? adapterLoginOf(ctx.config) : undefined
  return (resolver ?? asGiven)(ctx, provider, attempt)
}

/**
 * The user of the request's current session, if any (for linking a new account to them), read
 * by the one reader (`currentSessionOf`): a session that was ended, is past `absoluteMaxAge`
 * or belongs to an older session version is nobody.
 */
export async function signedInUser(ctx: RequestContext): Promise<AdapterUser | null> {
  const current = await currentSessionOf(ctx)
  if (!current.signedIn) return null
  return current.stored ?? (await ctx.config.adapter?.getUser?.(current.userId)) ?? null
}
