/**
 * Redirect helpers. Qwik City turns a redirect into client navigation for JavaScript (q-data)
 * submissions only when `Location` is a path, so same-origin URLs are reduced to one. 303 makes
 * the browser follow a form POST with a GET; 301 (what `@auth/qwik` used) would be cached.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"

/** `url` as a path when it is on the app's origin, else unchanged. */
export function toLocation(url: string, origin: string): string {
  let parsed: URL
  try {
    parsed = new URL(url, origin)
  } catch {
    return "/"
  }
  if (parsed.origin !== origin) return parsed.href
  return `${parsed.pathname}${parsed.search}${parsed.hash}`
}

/** The page the action was submitted from, without Qwik's `qaction`/`q-data.json` plumbing. */
export function currentPage(event: RequestEventCommon): string {
  const url = new URL(event.url)
  for (const key of ["qaction", "qdata", "qfunc"]) url.searchParams.delete(key)
  const pathname = url.pathname.replace(/\/q-data\.json$/, "/")
  return `${pathname}${url.search}`
}

/** End the action with a 303 to `url` (same-origin URLs become paths). */
export function redirectTo(event: RequestEventCommon, url: string): never {
  throw event.redirect(303, toLocation(url, event.url.origin))
}
