/**
 * Qwik 2's form of `../qwik/src/redirect.ts` (whose helpers it re-exports). Qwik 2 answers an
 * action submitted with JavaScript (`Accept: application/json`) as JSON, turns a redirect into
 * `{ redirect }`, and its client follows that with `goto()`: another origin gets a page load, a
 * same-origin path a client navigation, which fetches every loader of the new page anew. A
 * `goto()` to the page already shown does nothing at all (a sign-in form on `/` returning to `/`
 * would keep showing "signed out"), so that target gets no redirect: the action returns, and its
 * `invalidate` list (`useSession`, see route-options.ts) has the client re-fetch the session.
 * Pages under `basePath` are not Qwik routes: those get a real 303, which the client's `fetch`
 * follows and then loads with `location.href`. Without JavaScript every target is the plain 303
 * of Qwik City 1.
 *
 * Under `vite dev` Qwik 2's client (2.0.0-beta.45) stalls in both of those: after lazy-loading a
 * module it fetches no loader, neither after an action nor on a client navigation to a route it
 * has not shown yet, and the page keeps showing "signed out". The dev server therefore keeps a
 * page load for every same-origin target (a real 303, as above); production builds are in place.
 */
import { isDev } from "@builder.io/qwik/build"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { currentPage, isUnderBasePath, toLocation } from "../../qwik/src/redirect.js"

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

/** `location` without its fragment: `goto()` treats a change of fragment alone as the same page. */
function withoutHash(location: string): string {
  return location.split("#", 1)[0] ?? ""
}

/** End an action by sending the browser to `url` (see above). */
export function navigate(event: RequestEventCommon, url: string, basePath: string): void {
  navigateOn(event, url, basePath, isDev)
}

/**
 * {@link navigate}, with `pageLoad` (the dev server) sending Qwik's client to every same-origin
 * target with a page load. Returns, without a redirect, only in production when Qwik's client
 * submitted the action and `url` is the page it was submitted from.
 */
export function navigateOn(
  event: RequestEventCommon,
  url: string,
  basePath: string,
  pageLoad: boolean,
): void {
  const location = toLocation(url, event.url.origin)
  if (!isClientAction(event) || !location.startsWith("/")) throw event.redirect(303, location)
  if (pageLoad || isUnderBasePath(location, basePath)) {
    throw event.send(new Response(null, { status: 303, headers: { Location: location } }))
  }
  if (withoutHash(location) !== currentPage(event)) throw event.redirect(303, location)
}
