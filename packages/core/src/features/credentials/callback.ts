/**
 * `POST /callback/<credentials provider>`: CSRF, `authorize`, then the common sign-in path.
 * `null` → `CredentialsSignin` (sign-in page, `code=` from the app's subclass); an `AuthError`
 * thrown by `authorize` keeps its type; anything else is a `CallbackRouteError` (logged,
 * `error=Configuration`).
 */
import { AuthError, CallbackRouteError, CredentialsSignin, MethodNotAllowed } from "../../errors.js"
import { resolveCallbackUrl } from "../../kernel/callback-url.js"
import type { RequestContext } from "../../kernel/context.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import type { Outcome } from "../../kernel/http/outcome.js"
import { enforceCredentialsLimits } from "../../kernel/rate-limit/credentials-limits.js"
import { completeSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import type { Account, User } from "../../kernel/types/records.js"
import type { ProviderConfig } from "../../providers/index.js"
import { isPasswordProvider } from "../password/config.js"
import { authorizePassword } from "../password/sign-in.js"

export async function credentialsCallback(
  ctx: RequestContext,
  provider: ProviderConfig,
): Promise<Outcome> {
  if (provider.type !== "credentials") throw new TypeError("not a credentials provider")
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
    // The Password provider is run by the core: its users and hashes are the adapter's.
    user = isPasswordProvider(provider)
      ? await authorizePassword(ctx, provider, credentials)
      : await provider.authorize(credentials, rebuildRequest(ctx))
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

/** The original request with its body intact (ours was consumed by parsing). */
function rebuildRequest(ctx: RequestContext): Request {
  return new Request(ctx.request.url, {
    method: "POST",
    headers: ctx.request.headers,
    body: ctx.parsed.rawBody ?? "",
  })
}
