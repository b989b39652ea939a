/**
 * The plugin middleware. Requests under `basePath` are answered by the core `Auth()` (an unknown
 * action gets its typed 400, not the app's 404); every other request gets its session into
 * `sharedMap` through the fast path.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { Auth, setConnectionIp } from "@latchkey/core"
import { keepActionBody } from "./action-body.js"
import { basePathOf } from "./config.js"
import { applySetCookieHeaders, withoutSetCookie } from "./cookies.js"
import { connectionIp } from "./internal-request.js"
import { isQDataRequest, isUnderBasePath } from "./redirect.js"
import { loadSession } from "./session.js"
import type { QwikAuthConfig } from "./types.js"
import { platformWaitUntil } from "./wait-until.js"

/**
 * Whether the core answers `pathname`: everything under `basePath` except the app's own pages
 * configured in `pages` (an app moved from `@auth/qwik` may keep `pages.signIn: "/auth/login"`).
 */
export function isAuthRequest(pathname: string, config: QwikAuthConfig, origin: string): boolean {
  if (!isUnderBasePath(pathname, basePathOf(config))) return false
  for (const page of Object.values(config.pages ?? {})) {
    if (typeof page === "string" && new URL(page, origin).pathname === pathname) return false
  }
  return true
}

/**
 * Qwik City's client asks for `<page>/q-data.json` when it navigates without a page load (a
 * `<Link>`, or a redirect it follows after an action). The core's pages are not Qwik pages, so
 * the answer is "no data": its client then loads the page itself. Never a 4xx/5xx, which would
 * leave the user on a page that shows nothing.
 */
function answerDataRequest(event: RequestEventCommon): never {
  throw event.send(new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } }))
}

type RedirectCode = Parameters<RequestEventCommon["redirect"]>[0]
const redirectCodes = new Set<number>([301, 302, 303, 307, 308])

/** Answer an auth endpoint request; always ends the request by throwing Qwik's abort/redirect. */
async function answerAuthRequest(
  event: RequestEventCommon,
  config: QwikAuthConfig,
): Promise<never> {
  // Without a proxy header, the per-IP limits count the socket's address.
  setConnectionIp(event.request, connectionIp(event))
  const response = await Auth(event.request, config, { waitUntil: platformWaitUntil(event) })
  applySetCookieHeaders(event, response.headers)
  const location = response.headers.get("location")
  if (location !== null && redirectCodes.has(response.status)) {
    throw event.redirect(response.status as RedirectCode, location)
  }
  throw event.send(withoutSetCookie(response))
}

export async function handleRequest(
  event: RequestEventCommon,
  config: QwikAuthConfig,
): Promise<void> {
  if (isAuthRequest(event.url.pathname, config, event.url.origin)) {
    if (isQDataRequest(event)) answerDataRequest(event)
    await answerAuthRequest(event, config)
  }
  await keepActionBody(event)
  await loadSession(event, config)
}
