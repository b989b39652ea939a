/**
 * Qwik 2's form of `../qwik/src/route-options.ts`: the options Qwik 2 needs on the `useSession`
 * loader and on the actions, which Qwik City 1 did not take.
 */
import type { Loader } from "@builder.io/qwik-city"

/**
 * A loader's JSON answer is `no-cache` by default, which a shared cache may still store. The
 * session and the account are one user's: `private, no-store`. No `eTag`/`cacheKey` either, which would let an
 * answer computed for one cookie be replayed for another.
 */
export function sessionLoaderOptions() {
  return { cacheControl: { private: true, noStore: true } } as const
}

/**
 * Qwik 2's loaders are strict: after an action the client re-fetches only the loaders listed in
 * `invalidate`. Every action lists what it may change: the session (`useSession`) for the
 * sign-in ones, the account (`useAccount`, and `useSession` when it may end this session) for the
 * account ones.
 */
export function actionOptions<V>(validator: V, ...loaders: Loader<unknown>[]) {
  return { validation: [validator] as [V], invalidate: loaders }
}
