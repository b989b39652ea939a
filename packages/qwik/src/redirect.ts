/**
 * How an action or an endpoint sends the browser on. Qwik City follows a redirect with client
 * navigation only for its own routes: a `q-data.json` request (an action submitted with
 * JavaScript, a `<Link>`) that is redirected to a same-origin path is answered with that path's
 * `q-data.json`. Pages under `basePath` are not Qwik routes, and another origin (an OAuth
 * provider) cannot be fetched at all, so those targets get a full page navigation instead.
 * 303 makes the browser follow a form POST with a GET; 301 (what `@auth/qwik` used) is cached.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { redirectLocation } from "@latchkey/core"

/** Qwik City's `sharedMap` flag for a `…/q-data.json` request (its client fetching data). */
const QDATA_FLAG = "@isQData"

export function isQDataRequest(event: RequestEventCommon): boolean {
  return event.sharedMap.has(QDATA_FLAG)
}

/**
 * `url` as a path when it is on the app's origin (one leading slash: never `//host` or
 * `/\host`, whatever Qwik City would make of it), else the absolute URL. The core's own
 * normalisation, so the binding and the core cannot disagree on where a target points.
 */
export function toLocation(url: string, origin: string): string {
  return redirectLocation(url, origin)
}

/** Whether `path` is served by the core (under `basePath`) rather than by a Qwik City route. */
export function isUnderBasePath(path: string, basePath: string): boolean {
  // Every page request asks; most are nowhere near basePath.
  if (!path.startsWith(basePath)) return false
  const pathname = path.split(/[?#]/, 1)[0] ?? ""
  return pathname === basePath || pathname.startsWith(`${basePath}/`)
}

/** The page the action was submitted from, without Qwik's `qaction`/`q-data.json` plumbing. */
export function currentPage(event: RequestEventCommon): string {
  const url = new URL(event.url)
  for (const key of ["qaction", "qdata", "qfunc"]) url.searchParams.delete(key)
  const pathname = url.pathname.replace(/\/q-data\.json$/, "/")
  return `${pathname}${url.search}`
}

/**
 * End an action by sending the browser to `url`. App routes: a 303, which Qwik City turns into
 * client navigation when JavaScript is on. Anything else, with JavaScript on: the `Location`
 * header on Qwik City's data answer, which its client follows with `location.href` (a full
 * navigation); the action then returns normally. Without JavaScript: a 303.
 */
export function navigate(event: RequestEventCommon, url: string, basePath: string): void {
  const location = toLocation(url, event.url.origin)
  const appRoute = location.startsWith("/") && !isUnderBasePath(location, basePath)
  if (appRoute || !isQDataRequest(event)) throw event.redirect(303, location)
  event.headers.set("Location", location)
}
