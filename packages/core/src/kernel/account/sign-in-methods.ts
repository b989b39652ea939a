/**
 * The ways a user can still sign in, counted before a change that removes one (deleting a
 * passkey, unlinking a provider): the last one may not go.
 *
 * - each passkey, when a passkey (WebAuthn) provider is configured;
 * - each linked OAuth/OIDC account whose provider is configured;
 * - an email provider, when the user's email is verified (they can get a link);
 * - a credentials provider of the app's own, only when `account.hasCredentials(user)` says so
 *   (the password is the app's, in its own table);
 * - what the configured features count (`feature.signInMethods`: a password stored through the
 *   adapter, with the `Password` provider), except the feature named in `without` (the count of
 *   the others, before removing its way in).
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { featureOf, featuresOf } from "../feature/feature.js"
import type { AdapterAccount, AdapterAuthenticator, AdapterUser } from "../types/adapters.js"

/** The email link as a way in: the provider that sends it and the address it goes to. */
export interface EmailLinkMethod {
  provider: string
  email: string
}

/**
 * The email link, when it is a way in: an email provider is configured and the user's address
 * is proven, so a link mailed there signs them in. It cannot be removed on its own (the address
 * is the account's); changing the address moves it.
 */
export function emailLinkMethod(
  config: ResolvedConfig,
  user: Pick<AdapterUser, "email" | "emailVerified"> | null,
): EmailLinkMethod | null {
  if (!user?.email || !user.emailVerified) return null
  const provider = config.providers.find((p) => p.type === "email")
  return provider ? { provider: provider.id, email: user.email } : null
}

export async function countSignInMethods(
  config: ResolvedConfig,
  user: AdapterUser | null,
  passkeys: readonly AdapterAuthenticator[],
  accounts: readonly AdapterAccount[],
  options: { without?: string } = {},
): Promise<number> {
  const kinds = new Set(config.providers.map((p) => p.type))
  let count = kinds.has("webauthn") ? passkeys.length : 0
  count += accounts.filter(
    (a) => (a.type === "oauth" || a.type === "oidc") && config.providerById.has(a.provider),
  ).length
  if (emailLinkMethod(config, user)) count++
  const ownCredentials = config.providers.some(
    (p) => p.type === "credentials" && featureOf(p)?.id === "credentials",
  )
  if (ownCredentials && user && (await config.account.hasCredentials?.(user))) count++
  for (const feature of featuresOf(config)) {
    if (feature.id === options.without || !feature.signInMethods) continue
    count += await feature.signInMethods(config, { user, passkeys, accounts })
  }
  return count
}
