/**
 * A sign-in by posted credentials (`POST /callback/<provider>`), whoever checks them (the app's
 * `authorize`, or the password accounts' own check): CSRF, the per-IP and per-account limits,
 * the check, then the common sign-in path. `null` → `CredentialsSignin` (sign-in page, `code=`
 * from the app's subclass); an `AuthError` thrown by the check keeps its type; anything else is
 * a `CallbackRouteError` (logged, `error=Configuration`).
 */

import { requireCsrf } from "../csrf/require.js"
import {
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  MethodNotAllowed,
} from "../errors/errors.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import type { RequestContext } from "../http/context.js"
import type { Outcome } from "../http/outcome.js"
import {
  type CredentialsLimitedProvider,
  enforceCredentialsLimits,
} from "../rate-limit/credentials-limits.js"
import type { ProviderConfig } from "../types/provider.js"
import type { Account, User } from "../types/records.js"
import { completeSignIn } from "./complete-sign-in.js"

/** Checks the posted fields: the user, or `null` to refuse. */
export type CheckCredentials = (
  credentials: Record<string, unknown>,
  request: Request,
) => Promise<User | null>

export async function credentialsSignIn(
  ctx: RequestContext,
  provider: ProviderConfig & CredentialsLimitedProvider,
  check: CheckCredentials,
): Promise<Outcome> {
  if (ctx.parsed.method !== "POST") {
    throw new MethodNotAllowed("Credentials sign-in takes a POST to this URL", {
      details: { allow: "POST" },
    })
  }
  await requireCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)

  const { csrfToken: _csrfToken, ...credentials } = ctx.parsed.body
  const succeeded = await enforceCredentialsLimits(ctx, provider, credentials)
  let user: User | null
  try {
    user = await check(credentials, rebuildRequest(ctx))
  } catch (error) {
    if (error instanceof AuthError) throw error
    throw new CallbackRouteError("authorize() threw", {
      cause: error,
      details: { provider: provider.id },
    })
  }
  if (!user)
    throw new CredentialsSignin("authorize() returned no user", {
      details: { provider: provider.id },
    })

  await succeeded()
  const id = user.id === undefined || user.id === null ? crypto.randomUUID() : String(user.id)
  await assertStoredUser(ctx, provider.id, id)
  const signedIn: User = { ...user, id }
  const account: Account = { providerAccountId: id, type: "credentials", provider: provider.id }
  return completeSignIn(ctx, provider, { user: signedIn, account, credentials, callbackUrl })
}

/**
 * A database session is a row that points at a `users` row, so the user `authorize()` returns
 * must be one the adapter knows. Checked here, the mistake gets a log line that says what to do
 * instead of a foreign-key failure from the database.
 */
async function assertStoredUser(ctx: RequestContext, provider: string, id: string) {
  const { adapter, session } = ctx.config
  if (session.strategy !== "database" || !adapter?.getUser) return
  if (await adapter.getUser(id)) return
  throw new CallbackRouteError(
    `authorize() of "${provider}" returned user id "${id}", which is not in the adapter's users table. With database sessions, return the adapter's user (create it first with adapter.createUser).`,
    { details: { provider, reason: "user-not-in-adapter" } },
  )
}

/** The original request with its body intact (ours was consumed by parsing): for `authorize`. */
function rebuildRequest(ctx: RequestContext): Request {
  return new Request(ctx.request.url, {
    method: "POST",
    headers: ctx.request.headers,
    body: ctx.parsed.rawBody ?? "",
  })
}
