/**
 * What the features that keep something in sessions (OAuth's provider tokens) add to a session
 * read: the claims a rebuilding `jwt` callback must not drop, and `error: "RefreshTokenError"`
 * when what they keep can no longer be used (`SessionHooks`, which a `Feature` fills in).
 */
import type { ResolvedConfig } from "../config/resolve.js"
import type { JWT } from "../token/jwt.js"
import type { AdapterAccount } from "../types/adapters.js"
import type { ResponseCookie } from "../types/cookies.js"
import type { ProviderConfig } from "../types/provider.js"
import type { Account, Session } from "../types/records.js"
import type { SessionContext } from "./context.js"

/**
 * Where a provider's feature joins sign-in and the sessions: what it keeps of a provider's
 * tokens (OAuth's refresh), and what a session read must say about them.
 */
export interface SessionHooks {
  /** A provider account about to be linked: the row as stored (its tokens sealed, say). */
  accountRow?: (
    config: ResolvedConfig,
    provider: ProviderConfig,
    row: AdapterAccount,
  ) => Promise<AdapterAccount>
  /** A sign-in with an account that was linked before: what to store of what it brought. */
  signedInAgain?: (
    config: ResolvedConfig,
    provider: ProviderConfig,
    account: Account,
  ) => Promise<void>
  /**
   * A JWT session issued without an adapter: the cookies of the token with what the provider
   * keeps in it, or `undefined` to issue it as it is.
   */
  tokenAtSignIn?: (
    sctx: SessionContext,
    provider: ProviderConfig,
    account: Account | null,
    token: JWT,
  ) => Promise<ResponseCookie[] | undefined>
  /** A JWT the app's `jwt` callback rebuilt: what the feature keeps from the one before. */
  keepInToken?: (before: JWT, after: JWT) => JWT
  /** Whether a JWT session must carry `error: "RefreshTokenError"` (read from the token only). */
  tokenError?: (token: JWT) => boolean
  /** Whether a database session of `userId` must carry `error: "RefreshTokenError"`. */
  userError?: (config: ResolvedConfig, userId: string) => Promise<boolean>
}

const hooksOf = new WeakMap<ResolvedConfig, readonly SessionHooks[]>()

/** The session hooks of `config`'s features (computed once per config; mostly none). */
function sessionHooks(config: ResolvedConfig): readonly SessionHooks[] {
  let hooks = hooksOf.get(config)
  if (!hooks) {
    // A feature (`feature/feature.ts`) fills in `session`; the sessions need only that part.
    const features = config.features as readonly { readonly session?: SessionHooks }[]
    hooks = features.flatMap((feature) => (feature.session ? [feature.session] : []))
    hooksOf.set(config, hooks)
  }
  return hooks
}

/** `after` with what each feature keeps from `before` (a `jwt` callback built `after` anew). */
export function keepFeatureClaims(config: ResolvedConfig, before: JWT, after: JWT): JWT {
  let token = after
  for (const hooks of sessionHooks(config)) {
    if (hooks.keepInToken) token = hooks.keepInToken(before, token)
  }
  return token
}

/** Whether a feature says the JWT session of `token` must carry a refresh error. */
export function tokenHasError(config: ResolvedConfig, token: JWT): boolean {
  return sessionHooks(config).some((hooks) => hooks.tokenError?.(token) === true)
}

/** Whether a feature says a database session of `userId` must carry a refresh error. */
export async function userHasError(config: ResolvedConfig, userId: string): Promise<boolean> {
  for (const hooks of sessionHooks(config)) {
    if (hooks.userError && (await hooks.userError(config, userId))) return true
  }
  return false
}

/** `session` with the error set, unless the app's `session` callback set one itself. */
export function markSession(session: Session): Session {
  if (session.error === undefined) session.error = "RefreshTokenError"
  return session
}
