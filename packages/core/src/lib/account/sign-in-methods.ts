/**
 * The ways a user can still sign in, counted before a change that removes one (deleting a
 * passkey, unlinking a provider): the last one may not go.
 *
 * - each passkey, when a passkey (WebAuthn) provider is configured;
 * - each linked OAuth/OIDC account whose provider is configured;
 * - an email provider, when the user's email is verified (they can get a link);
 * - a credentials provider, only when `account.hasCredentials(user)` says so (the adapter
 *   knows nothing of passwords).
 */
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../../adapters.js"
import type { ResolvedConfig } from "../config/resolve.js"

export async function countSignInMethods(
  config: ResolvedConfig,
  user: AdapterUser | null,
  passkeys: readonly AdapterAuthenticator[],
  accounts: readonly AdapterAccount[],
): Promise<number> {
  const kinds = new Set(config.providers.map((p) => p.type))
  let count = kinds.has("webauthn") ? passkeys.length : 0
  count += accounts.filter(
    (a) => (a.type === "oauth" || a.type === "oidc") && config.providerById.has(a.provider),
  ).length
  if (kinds.has("email") && user?.email && user.emailVerified) count++
  if (kinds.has("credentials") && user && (await config.account.hasCredentials?.(user))) count++
  return count
}
