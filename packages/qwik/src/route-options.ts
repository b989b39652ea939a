/**
 * Options of the loader and actions `QwikAuth$` defines. Qwik City 1 re-runs every loader after an
 * action and takes no caching option on a loader, so there is nothing to add here; Qwik 2 needs
 * both, and `@latchkey/qwik2` compiles its own version of this module (packages/qwik2/src).
 */

/** Options of the `useSession` loader: none on Qwik City 1. */
export function sessionLoaderOptions(): undefined {
  return undefined
}

/** Options of an action: its validator alone on Qwik City 1 (which re-runs `useSession` anyway). */
export function actionOptions<V>(validator: V, _sessionLoader: unknown): V {
  return validator
}
