/**
 * What the features that keep something in sessions (OAuth's provider tokens) add to a session
 * read: the claims a rebuilding `jwt` callback must not drop, and `error: "RefreshTokenError"`
 * when what they keep can no longer be used (`SessionHooks` in `feature.ts`).
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { featuresOf, type SessionHooks } from "../feature.js"
import type { JWT } from "../token/jwt.js"
import type { Session } from "../types/records.js"

const hooksOf = new WeakMap<ResolvedConfig, readonly SessionHooks[]>()

/** The session hooks of `config`'s features (computed once per config; mostly none). */
function sessionHooks(config: ResolvedConfig): readonly SessionHooks[] {
  let hooks = hooksOf.get(config)
  if (!hooks) {
    hooks = featuresOf(config).flatMap((feature) => (feature.session ? [feature.session] : []))
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
