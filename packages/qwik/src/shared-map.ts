/**
 * Keys this binding uses in Qwik City's per-request `sharedMap`. Qwik's own keys start with `@`,
 * so ours do too; the session is also written under the bare `"session"` key because apps moving
 * from `@auth/qwik` read `event.sharedMap.get("session")` in their layouts.
 */
import type { Session } from "@latchkey/core"

/** The session (`Session | null`) once it has been read for this request. @public */
export const SESSION_KEY = "@latchkey/session"
/** `@auth/qwik` compatibility alias of {@link SESSION_KEY}. @public */
export const LEGACY_SESSION_KEY = "session"
/** Promise of the resolved configuration, so the config QRL runs at most once per request. */
export const CONFIG_KEY = "@latchkey/config"
/**
 * Cookies the core set during this request (name → value, `null` when cleared), so a later
 * internal request of the same request (a loader after an action) presents them, not the
 * stale ones the browser sent.
 */
export const COOKIES_SET_KEY = "@latchkey/cookies-set"

type SharedMapHolder = { readonly sharedMap: Map<string, unknown> }

export function setSession(event: SharedMapHolder, session: Session | null): void {
  event.sharedMap.set(SESSION_KEY, session)
  event.sharedMap.set(LEGACY_SESSION_KEY, session)
}

export function hasSession(event: SharedMapHolder): boolean {
  return event.sharedMap.has(SESSION_KEY)
}

export function readSessionFromMap(event: SharedMapHolder): Session | null {
  return (event.sharedMap.get(SESSION_KEY) as Session | null | undefined) ?? null
}
