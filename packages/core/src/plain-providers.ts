/**
 * Auth.js lets an app write a provider as a plain object (`{ id: "corp", type: "oidc", issuer,
 * clientId, clientSecret }`, `{ id: "http-email", type: "email", sendVerificationRequest }`), and
 * Latchkey's bindings take the two-factor options as a plain object; an Auth.js adapter is an
 * object of methods. Such a value carries no feature (the factories attach one, `kernel/feature/feature.ts`), so the core refuses it; this function
 * gives each plain value the feature its `type` names, loaded with `import()` the first time one
 * is met. The Qwik bindings pass every config through it; an app calling `Auth()` itself with an
 * Auth.js-style config does the same:
 *
 * ```ts
 * import { withPlainProviders } from "@latchkey/core/plain-providers"
 * const response = await Auth(request, await withPlainProviders(config))
 * ```
 *
 * It is an entry of its own, not part of `Auth()`: a one-file bundle (a Worker) would otherwise
 * carry every feature a plain object might need, which is what an app of factories avoids.
 *
 * @module @latchkey/core/plain-providers
 */
import type { Feature } from "./kernel/feature/feature.js"
import { featureOf, withFeature } from "./kernel/feature/feature.js"
import type { AuthConfig } from "./types.js"

/** The feature of each provider `type` a plain object may have. */
const FEATURE_OF_TYPE: Record<string, () => Promise<Feature>> = {
  oauth: () => import("./features/oauth/index.js").then((m) => m.oauthFeature),
  oidc: () => import("./features/oauth/index.js").then((m) => m.oauthFeature),
  credentials: () => import("./features/credentials/index.js").then((m) => m.credentialsFeature),
  email: () => import("./features/email/index.js").then((m) => m.emailFeature),
  webauthn: () => import("./features/passkey/index.js").then((m) => m.passkeyFeature),
}

const loadTwoFactor = () => import("./features/two-factor/index.js").then((m) => m.twoFactorFeature)
const loadAccountApi = () =>
  import("./features/account-api/index.js").then((m) => m.accountApiFeature)
const loadOrganizations = () =>
  import("./features/organizations/index.js").then((m) => m.organizationsFeature)
const loadAdapterFeature = () =>
  import("./features/adapter/index.js").then((m) => m.withAdapterFeature)

/** Provider types whose changes are account changes: the account API comes with them. */
const WITH_ACCOUNT_API = new Set(["webauthn"])

/** Configurations already looked at, and what they became (the same object when nothing). */
const seen = new WeakMap<object, AuthConfig | Promise<AuthConfig>>()

/**
 * `config` with every plain provider object, plain `twoFactor` and `organizations`, and an
 * Auth.js adapter carrying its feature. A value
 * with no known `type` is left for the kernel's configuration check, which names it.
 */
export function withPlainProviders<C extends AuthConfig>(config: C): C | Promise<C> {
  if (!config || typeof config !== "object") return config
  const known = seen.get(config) as C | Promise<C> | undefined
  if (known) return known
  const made = needsFeatures(config) ? upgrade(config) : config
  seen.set(config, made)
  if (made instanceof Promise) {
    // Once settled, later requests get the object itself (no await of a settled promise).
    made.then(
      (upgraded) => seen.set(config, upgraded),
      () => seen.delete(config),
    )
  }
  return made
}

function isPlain(value: unknown): value is { type?: unknown } {
  return value !== null && typeof value === "object" && featureOf(value) === undefined
}

function needsFeatures(config: AuthConfig): boolean {
  const providers: unknown[] = Array.isArray(config.providers) ? config.providers : []
  return (
    providers.some((p) => isPlain(p) || typeof p === "function") ||
    (config.twoFactor !== undefined && isPlain(config.twoFactor)) ||
    (config.organizations !== undefined && isPlain(config.organizations)) ||
    (config.adapter !== undefined && isPlain(config.adapter))
  )
}

async function upgrade<C extends AuthConfig>(config: C): Promise<C> {
  const providers = Array.isArray(config.providers)
    ? await Promise.all(config.providers.map(upgradeProvider))
    : config.providers
  const twoFactor =
    config.twoFactor !== undefined && isPlain(config.twoFactor)
      ? withFeature(config.twoFactor, await loadTwoFactor(), await loadAccountApi())
      : config.twoFactor
  const organizations =
    config.organizations !== undefined && isPlain(config.organizations)
      ? withFeature(config.organizations, await loadOrganizations())
      : config.organizations
  const adapter =
    config.adapter !== undefined && isPlain(config.adapter)
      ? (await loadAdapterFeature())(config.adapter)
      : config.adapter
  return { ...config, providers, twoFactor, organizations, adapter } as C
}

async function upgradeProvider(entry: unknown): Promise<unknown> {
  // Auth.js takes a factory uncalled (`providers: [GitHub]`): called without options, as it does.
  const provider = typeof entry === "function" ? (entry as () => unknown)() : entry
  if (!isPlain(provider)) return provider
  const load = typeof provider.type === "string" ? FEATURE_OF_TYPE[provider.type] : undefined
  if (!load) return provider
  const alongside = WITH_ACCOUNT_API.has(provider.type as string) ? [await loadAccountApi()] : []
  return withFeature(provider, await load(), ...alongside)
}
