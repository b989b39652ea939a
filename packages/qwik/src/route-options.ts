/**
 * Options of the loader and actions `QwikAuth$` defines. Qwik City 1 re-runs every loader after an
 * action and takes no caching option on a loader, so there is nothing to add here; Qwik 2 needs
 * both, and `@latchkey/qwik2` compiles its own version of this module (packages/qwik2/src).
 */

/** Options of a loader of per-user data (`useSession`, `useAccount`): none on Qwik City 1. */
export function sessionLoaderOptions(): undefined {
  return undefined
}

/**
 * Options of an action: its validator alone on Qwik City 1 (which re-runs every loader after an
 * action anyway); `loaders` are the ones Qwik 2 must re-run.
 */
export function actionOptions<V>(validator: V, ..._loaders: unknown[]): V {
  return validator
}
