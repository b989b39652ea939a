/**
 * Public types of `@latchkey/qwik`.
 *
 * @module @latchkey/qwik
 */
import type { AuthConfig, DefaultSession, getSession, Session } from "@latchkey/core"

/**
 * The configuration `QwikAuth$` takes: the core `AuthConfig` (`basePath` defaults to `/auth`).
 * Return the same object on every call (define it at module scope) so the core can reuse its
 * resolved form across requests.
 *
 * @public
 */
export interface QwikAuthConfig extends AuthConfig {}

/**
 * A cookie the core asks the binding to set, with its value not yet URL-encoded.
 *
 * @public
 */
export type ResponseCookie = Awaited<ReturnType<typeof getSession>>["cookies"][number]

/**
 * What {@link getSessionData} resolves to: the session (or `null`) and the cookies to set, which
 * are non-empty only when the session was re-issued or must be cleared. Unlike `@auth/qwik`, the
 * cookies come as parsed objects, never as a joined `Set-Cookie` string.
 *
 * @public
 */
export type GetSessionResult = Promise<{ data: Session | null; cookie: ResponseCookie[] }>

/** What a config's `session` callback resolves to, or `never` when it has none. */
type CallbackSession<C> = C extends { callbacks?: infer CB }
  ? CB extends { session?: infer F }
    ? // biome-ignore lint/suspicious/noExplicitAny: matching any function signature
      F extends (...args: any[]) => infer R
      ? Awaited<R>
      : never
    : never
  : never

/**
 * The session type `useSession()` yields for config `C`: what its `session` callback returns when
 * TypeScript can see it (`QwikAuth$(() => ({ … }))` or a config declared with `satisfies
 * QwikAuthConfig`), else `Session` (augmentable with `declare module "@latchkey/core"`).
 *
 * @public
 */
export type SessionOf<C> = [CallbackSession<C>] extends [never]
  ? Session
  : [Session | DefaultSession] extends [CallbackSession<C>]
    ? Session
    : CallbackSession<C>
