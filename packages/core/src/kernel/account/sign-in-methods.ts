/**
 * The ways a user can still sign in, counted before a change that removes one (deleting a
 * passkey, unlinking a provider): the last one may not go.
 *
 * - each passkey, when a passkey (WebAuthn) provider is configured;
 * - each linked OAuth/OIDC account whose provider is configured;
 * - an email provider, when the user's email is verified (they can get a link);
 * - a password stored through the adapter, when the `Password` provider is configured (unless
 *   `withoutPassword`: the count of the others, before removing it);
 * - a credentials provider of the app's own, only when `account.hasCredentials(user)` says so
 *   (the password is the app's, in its own table).
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import { findPasswordProvider, isPasswordProvider } from "../../features/password/config.js"
import type { ResolvedConfig } from "../config/resolve.js"

export async function countSignInMethods(
  config: ResolvedConfig,
  user: AdapterUser | null,
  passkeys: readonly AdapterAuthenticator[],
  accounts: readonly AdapterAccount[],
  options: { withoutPassword?: boolean } = {},
): Promise<number> {
  const kinds = new Set(config.providers.map((p) => p.type))
  let count = kinds.has("webauthn") ? passkeys.length : 0
  count += accounts.filter(
    (a) => (a.type === "oauth" || a.type === "oidc") && config.providerById.has(a.provider),
  ).length
  if (kinds.has("email") && user?.email && user.emailVerified) count++
  const ownCredentials = config.providers.some(
    (p) => p.type === "credentials" && !isPasswordProvider(p),
  )
  if (ownCredentials && user && (await config.account.hasCredentials?.(user))) count++
  if (
    !options.withoutPassword &&
    user &&
    findPasswordProvider(config.providers) &&
    config.adapter?.getPasswordHash &&
    (await config.adapter.getPasswordHash(user.id)) !== null
  ) {
    count++
  }
  return count
}
