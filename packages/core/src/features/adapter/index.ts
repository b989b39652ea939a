/**
 * The adapter feature: what Latchkey does with the rows of an adapter at sign-in. A verified
 * sign-in finds, links, creates or claims its user among them (`login.ts`), and the
 * configuration is checked for what a claim needs (`checks.ts`). An adapter brings it: Latchkey's
 * adapters are made with it, and an Auth.js adapter (or any object of the contract's methods)
 * is given it by `withAdapterFeature` (or by `withPlainProviders`, as the Qwik bindings do). An
 * app without an adapter, whose sessions are JWTs of the provider's user, bundles none of it.
 */

import { FEATURE, type Feature, featureOf } from "../../kernel/feature/feature.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import { checkAdapterConfig } from "./checks.js"
import { resolveAdapterLogin } from "./login.js"

export const adapterFeature: Feature = {
  id: "adapter",
  check: checkAdapterConfig,
  resolveLogin: resolveAdapterLogin,
}

/**
 * `adapter`, carrying the code that serves it. The adapter object itself is marked (an own,
 * enumerable property, so `{ ...adapter, override }` keeps it): a copy would lose the methods a
 * class-based adapter keeps on its prototype. A frozen adapter is copied, prototype and all.
 */
export function withAdapterFeature<A extends Adapter>(adapter: A): A {
  if (featureOf(adapter) === adapterFeature) return adapter
  if (Object.isExtensible(adapter)) {
    ;(adapter as Record<symbol, unknown>)[FEATURE] = adapterFeature
    return adapter
  }
  const copy = Object.create(Object.getPrototypeOf(adapter)) as A
  return Object.assign(copy, adapter, { [FEATURE]: adapterFeature })
}
