/**
 * The key under which a provider object, or a value of the configuration, carries the feature
 * that serves it (`kernel/feature/feature.ts`). Apart so the bottom types can name it without importing the
 * feature interface.
 */
export const FEATURE: unique symbol = Symbol.for("latchkey.feature")

/** What every feature is at least (`Feature` in `kernel/feature/feature.ts` is the whole of it). */
export interface FeatureIdentity {
  /** `"oauth"`, `"passkey"`, `"two-factor"`, … */
  readonly id: string
}

/**
 * The key under which such a value carries the features that must come with its own: the
 * account API with `Password()`, whose password changes are account changes. Set by the
 * entries that build the value (features never import each other).
 */
export const ALONGSIDE: unique symbol = Symbol.for("latchkey.features-alongside")

/** A value that brings a feature with it: a provider object, `twoFactor: TwoFactor(…)`. */
export interface CarriesFeature {
  readonly [FEATURE]?: FeatureIdentity
  readonly [ALONGSIDE]?: readonly FeatureIdentity[]
}
