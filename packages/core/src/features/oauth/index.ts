/**
 * Sign-in with OAuth 2 and OpenID Connect providers (the presets of `@latchkey/core/providers`
 * and `OAuth()`), with the provider tokens they hand over and their refresh (`refresh` on a
 * provider: `getAccessToken`).
 *
 * Where it joins the kernel: `POST /signin/<id>` (the authorization redirect), `/callback/<id>`,
 * the sign-in page's buttons (`sign-in-entry.ts`), the configuration check, the adapter
 * methods it needs, and the session hooks that keep a refreshing provider's tokens (sealed in the
 * `accounts` row, or in the session token without an adapter) and mark a session whose refresh
 * failed.
 */

import { envKey } from "../../kernel/config/env.js"
import { InvalidEndpoints } from "../../kernel/errors/errors.js"
import { type Feature, providersOf } from "../../kernel/feature/feature.js"
import { type AdapterAccount, refreshAdapterMethods } from "../../kernel/types/adapters.js"
import { oauthCallback, oauthSignIn } from "./actions.js"
import { missingClientCredentials } from "./client/provider.js"
import type { AnyOAuthProviderConfig } from "./client/provider-config.js"
import { refreshOptionsOf } from "./refresh/options.js"
import { issueWithinBudget } from "./refresh/session-cookie.js"
import {
  accountsHaveRefreshError,
  keepProviderTokens,
  refreshingProviders,
  tokenHasRefreshError,
} from "./refresh/session-error.js"
import { accountRowOf, storeSignInTokens, withSignInTokens } from "./refresh/sign-in.js"
import { oauthEntry } from "./sign-in-entry.js"

/** What an adapter needs to store OAuth users and their accounts. */
const OAUTH_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "linkAccount",
] as const

export const oauthFeature: Feature = {
  id: "oauth",
  perIsolate: "an OAuth state is single-use per isolate",
  signIn: oauthSignIn,
  callback: oauthCallback,
  signInPage: () => ({ provider: { render: oauthEntry } }),
  check({ providers }, report) {
    for (const provider of providersOf<AnyOAuthProviderConfig>(oauthFeature, providers)) {
      const unusable = unusableProvider(provider as unknown as Record<string, unknown>)
      if (unusable) report.warnings.push({ code: "provider-unusable", detail: unusable })
      const endpoint = missingEndpoint(provider as unknown as Record<string, unknown>)
      if (endpoint) {
        report.problems.push(
          new InvalidEndpoints(
            `Provider "${provider.id}" has no issuer to discover and no ${endpoint} URL`,
          ),
        )
      }
    }
  },
  adapterNeeds(providers) {
    const own = providersOf(oauthFeature, providers)
    const refreshing = own.some((p) => refreshOptionsOf(p) !== undefined)
    return { methods: [...OAUTH_METHODS, ...(refreshing ? refreshAdapterMethods : [])] }
  },
  session: {
    accountRow: (config, provider, row: AdapterAccount) => accountRowOf(config, provider, row),
    signedInAgain: (config, provider, account) => storeSignInTokens(config, provider, account),
    async tokenAtSignIn(sctx, provider, account, token) {
      const withTokens = withSignInTokens(token, provider, account)
      return withTokens === token ? undefined : issueWithinBudget(sctx, withTokens, provider.id)
    },
    keepInToken: keepProviderTokens,
    tokenError: tokenHasRefreshError,
    async userError(config, userId) {
      return refreshingProviders(config).length > 0 && accountsHaveRefreshError(config, userId)
    },
  },
}

/**
 * What an OAuth/OIDC provider lacks to sign anyone in, naming the variables to set, or
 * `undefined`. Only this provider's sign-in fails (`InvalidProvider`), so the app starts and the
 * log says why at once rather than on the first click.
 */
function unusableProvider(p: Record<string, unknown>): string | undefined {
  const key = `AUTH_${envKey(String(p.id))}`
  const lacks = missingClientCredentials(p)
  const missing = [
    ...(lacks.clientId ? [`${key}_ID`] : []),
    ...(lacks.clientSecret ? [`${key}_SECRET`] : []),
  ]
  if (missing.length === 0) return undefined
  return `Provider "${String(p.id)}" cannot sign anyone in: set ${missing.join(" and ")} (or clientId/clientSecret in its options)`
}

/** The first endpoint a provider without an issuer to discover lacks, if any. */
function missingEndpoint(p: Record<string, unknown>): string | undefined {
  if (typeof p.issuer === "string" || typeof p.wellKnown === "string") return undefined
  return (["authorization", "token", "userinfo"] as const).find((endpoint) => !hasUrl(p[endpoint]))
}

function hasUrl(value: unknown): boolean {
  if (typeof value === "string") return true
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { url?: unknown }).url === "string"
  )
}
