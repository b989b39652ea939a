/**
 * `QwikAuth$`: everything a `src/routes/plugin@auth.ts` exports. Each server body starts with
 * `if (!isServer)` so that, when an app bundles this library for the browser, the core and its
 * dependencies are dropped as dead code.
 */
// biome-ignore-all lint/correctness/useQwikLoaderLocation: a library defines loaders and actions for the app, which re-exports them from src/routes/plugin@auth.ts (route boundary)
// biome-ignore-all lint/correctness/useQwikValidLexicalScope: onRequest is a server middleware, never serialized; the $ closures only capture the config QRL
import { implicit$FirstArg, type QRL } from "@builder.io/qwik"
import { isServer } from "@builder.io/qwik/build"
import { globalAction$, type RequestEventCommon, routeLoader$, zod$ } from "@builder.io/qwik-city"
import { signIn, signOut, updateSession } from "./actions.js"
import { type QwikAuthConfigFn, resolveConfig } from "./config.js"
import { handleRequest } from "./on-request.js"
import { signInSchema, signOutSchema, updateSessionSchema } from "./schemas.js"
import { loadSession } from "./session.js"
import { hasSession, readSessionFromMap } from "./shared-map.js"
import type { QwikAuthConfig, SessionOf } from "./types.js"

/**
 * The `Qrl` form of {@link QwikAuth$}.
 *
 * @public
 */
export function QwikAuthQrl<C extends QwikAuthConfig>(configQrl: QRL<QwikAuthConfigFn<C>>) {
  /** The current session, or `null` when signed out. */
  const useSession = routeLoader$(async (event): Promise<SessionOf<C> | null> => {
    if (!isServer) return null
    // Loaders also run when the app forgot to export `onRequest`: read the session lazily then.
    if (!hasSession(event)) await loadSession(event, await resolveConfig(event, configQrl))
    return readSessionFromMap(event) as SessionOf<C> | null
  })

  /** Start a provider's flow (credentials: sign in directly), then redirect with 303. */
  const useSignIn = globalAction$(async (input, event) => {
    if (!isServer) return
    await signIn(event, await resolveConfig(event, configQrl), input)
  }, zod$(signInSchema))

  /** Clear the session, then redirect with 303 to `redirectTo` (default: the current page). */
  const useSignOut = globalAction$(async (input, event) => {
    if (!isServer) return
    await signOut(event, await resolveConfig(event, configQrl), input)
  }, zod$(signOutSchema))

  /** Run the session `update` trigger with `data`; returns the updated session. */
  const useUpdateSession = globalAction$(async (input, event) => {
    if (!isServer) return { session: null }
    return { session: await updateSession(event, await resolveConfig(event, configQrl), input) }
  }, zod$(updateSessionSchema))

  /** Plugin middleware: auth endpoints under `basePath`, and the session for every other page. */
  const onRequest = async (event: RequestEventCommon): Promise<void> => {
    if (!isServer) return
    await handleRequest(event, await resolveConfig(event, configQrl))
  }

  return { onRequest, useSession, useSignIn, useSignOut, useUpdateSession }
}

/**
 * Set up Latchkey for a Qwik City app. `configFn` receives the request event and returns the
 * config; `basePath` defaults to `/auth`.
 *
 * ```ts
 * // src/routes/plugin@auth.ts
 * export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(() => config)
 * ```
 *
 * @public
 */
export const QwikAuth$: <C extends QwikAuthConfig>(
  configFn: QwikAuthConfigFn<C>,
) => ReturnType<typeof QwikAuthQrl<C>> = /*#__PURE__*/ implicit$FirstArg(QwikAuthQrl)
