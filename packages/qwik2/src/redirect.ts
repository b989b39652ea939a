/**
 * Qwik 2's form of `../qwik/src/redirect.ts` (whose helpers it re-exports). Qwik 2 answers an
 * action submitted with JavaScript (`Accept: application/json`) as JSON, turns a redirect into
 * `{ redirect }`, and its client follows that with `goto()`: another origin gets a page load, a
 * same-origin path a client navigation that re-runs none of the loaders when the path is the page
 * already shown (a sign-in form on `/` returning to `/` would keep showing "signed out").
 *
 * A sign-in or sign-out changes what every loader may see, so with JavaScript on it ends in a page
 * load, as `next-auth/react` does: a real 303, which the client's `fetch` follows and then loads
 * with `location.href`. Another origin (an OAuth provider) cannot be fetched, so it keeps the
 * JSON redirect. Without JavaScript it is the plain 303 of Qwik City 1.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { toLocation } from "../../qwik/src/redirect.js"

export { currentPage, isUnderBasePath, toLocation } from "../../qwik/src/redirect.js"

/** Qwik 2's `sharedMap` flag for a per-loader data request (`…/q-loader-<id>.<hash>.json`). */
const QLOADER_FLAG = "@isQLoader"
/** Qwik 2's `sharedMap` flag for a request carrying `?qaction=`. */
const QACTION_FLAG = "@isQAction"

/** A request for loader data from Qwik's client (not a page). */
export function isQDataRequest(event: RequestEventCommon): boolean {
  return event.sharedMap.has(QLOADER_FLAG)
}

/** An action submitted by Qwik's client, which reads the answer as JSON. */
function isClientAction(event: RequestEventCommon): boolean {
  return (
    event.sharedMap.has(QACTION_FLAG) &&
    (event.request.headers.get("accept")?.includes("application/json") ?? false)
  )
}

/** End an action by sending the browser to `url` with a page load (see above). */
export function navigate(event: RequestEventCommon, url: string, _basePath: string): void {
  const location = toLocation(url, event.url.origin)
  if (!isClientAction(event) || !location.startsWith("/")) throw event.redirect(303, location)
  throw event.send(new Response(null, { status: 303, headers: { Location: location } }))
}
