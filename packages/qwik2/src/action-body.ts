/**
 * Qwik 2's form of `../qwik/src/action-body.ts`. With strict loaders (the default), Qwik 2
 * (@qwik.dev/router 2.0.0-beta.45, `getLoaderRequestEvent`) runs a loader declared at another
 * path than the page, or with other search params (every loader with options gets `search: []`,
 * and an action's URL carries `?qaction=`), on a request it rebuilds as
 * `new Request(url, event.request)`. That copies the action's POST body, which the action has
 * read by then, and throws "Response body object should not be disturbed or locked": a page
 * answering a form POST without JavaScript (an action that returns instead of redirecting)
 * is a 500 whenever it shows `useSession` (declared by the plugin, at `/`) below `/`, and so is
 * `resolveValue(useSession)` inside any action.
 *
 * The plugin middleware runs before Qwik's action handler, so it has Qwik parse the body now,
 * from a copy of the request: the parsed form is cached by `parseBody()` for the action, and
 * `event.request` keeps a body never read, for the request each loader is given.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"

/** Qwik 2's `sharedMap` flag for a request carrying `?qaction=`. */
const QACTION_FLAG = "@isQAction"

/** Have Qwik parse an action's body from a copy, leaving `event.request`'s body unread. */
export async function keepActionBody(event: RequestEventCommon): Promise<void> {
  if (event.method !== "POST" || !event.sharedMap.has(QACTION_FLAG)) return
  const request = event.request
  if (request.body === null || request.bodyUsed) return
  const writable = event as { request: Request }
  writable.request = request.clone()
  // parseBody() reads `event.request` synchronously, before its first await.
  const parsed = event.parseBody()
  writable.request = request
  // A body Qwik cannot parse fails in its own action handler (the cached promise), not here.
  await parsed.catch(() => undefined)
}
