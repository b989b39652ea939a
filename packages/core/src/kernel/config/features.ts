/**
 * The part of a feature that configuration resolution sees (`Feature` in `../feature/feature.ts` is the
 * whole of it): its settings, its checks, the adapter methods it needs, what it keeps per
 * isolate. Apart from the request-time part so that resolving a configuration depends on
 * nothing that depends on a resolved configuration.
 */
import type { AuthError } from "../errors/errors.js"
import type { LogTexts, WarningCode } from "../errors/warnings.js"
import {
  ALONGSIDE,
  type CarriesFeature,
  FEATURE,
  type FeatureIdentity,
} from "../types/feature-key.js"
import type { ProviderConfig } from "../types/provider.js"
import type { AuthConfig } from "./auth-config.js"

/** What the configuration check of a feature reports. */
export interface ConfigReport {
  problems: AuthError[]
  warnings: { code: WarningCode; detail?: string }[]
}

/** What a feature's configuration check sees. */
export interface FeatureCheckInput {
  config: AuthConfig
  providers: readonly ProviderConfig[]
  session: { strategy: string }
}

export interface ConfigFeature extends FeatureIdentity {
  /**
   * Reads this feature's part of the configuration once, when it is resolved; the result is
   * what `settingsOf` answers. Problems go to `report`.
   */
  readonly resolve?: (config: Readonly<Record<string, unknown>>, report: ConfigReport) => unknown
  /** Checks of this feature's providers and settings, once per configuration. */
  readonly check?: (input: FeatureCheckInput, report: ConfigReport) => void
  /**
   * The adapter methods this feature needs for these providers (named together with every
   * other part's in one `MissingAdapterMethods`), and the error when there is no adapter at all.
   */
  readonly adapterNeeds?: (
    providers: readonly ProviderConfig[],
  ) => { methods: readonly string[]; withoutAdapter?: AuthError } | undefined
  /**
   * What this feature keeps single-use (or counts) in the store, as it holds without a shared
   * one where every isolate has its own memory: one phrase for the `store-per-isolate` warning.
   */
  readonly perIsolate?: string
  /** The sentences of the log codes only this feature's code logs (the rest are the kernel's). */
  readonly logTexts?: LogTexts
}

/** The feature a provider object or a configuration value carries, if any. */
export function featureOf(value: unknown): ConfigFeature | undefined {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return undefined
  const feature = (value as CarriesFeature)[FEATURE]
  return feature && typeof feature === "object" && typeof feature.id === "string"
    ? (feature as ConfigFeature)
    : undefined
}

/** Every feature a provider object or a configuration value brings: its own, then those alongside. */
export function featuresBroughtBy(value: unknown): ConfigFeature[] {
  const own = featureOf(value)
  if (!own) return []
  const alongside = (value as CarriesFeature)[ALONGSIDE]
  return Array.isArray(alongside) ? [own, ...(alongside as ConfigFeature[])] : [own]
}

/** The providers `feature` serves. */
export function providersOf<P extends ProviderConfig>(
  feature: FeatureIdentity,
  providers: readonly ProviderConfig[],
): P[] {
  return providers.filter((provider) => featureOf(provider) === feature) as P[]
}

/**
 * `value` carrying `feature`, and the features that must come with it (a new object; the
 * original is left as it is).
 */
export function withFeature<T extends object>(
  value: T,
  feature: FeatureIdentity,
  ...alongside: FeatureIdentity[]
): T & CarriesFeature {
  const carried = Object.assign({}, value, { [FEATURE]: feature })
  return alongside.length > 0 ? Object.assign(carried, { [ALONGSIDE]: alongside }) : carried
}
