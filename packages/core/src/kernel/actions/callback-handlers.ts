/** `/callback/<provider>`: the provider's feature answers. */
import { type Feature, featureOf } from "../feature/feature.js"
import type { ProviderConfig } from "../types/provider.js"

export type CallbackHandler = NonNullable<Feature["callback"]>

export function callbackHandlerOf(provider: ProviderConfig): CallbackHandler | undefined {
  return featureOf(provider)?.callback
}
