/**
 * The plugin middleware. Requests for an auth action under `basePath` are answered by the core
 * `Auth()`; every other request gets its session into `sharedMap` through the fast path.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { Auth, isAuthAction } from "@latchkey/core"
import { basePathOf } from "./config.js"
import { applySetCookieHeaders, withoutSetCookie } from "./cookies.js"
import { loadSession } from "./session.js"
import type { QwikAuthConfig } from "./types.js"

/** Whether `pathname` is `<basePath>/<action>[/…]` for a real action (other paths stay the app's). */
export function isAuthRequest(pathname: string, basePath: string): boolean {
  if (!pathname.startsWith(`${basePath}/`)) return false
  const action = pathname.slice(basePath.length + 1).split("/", 1)[0] ?? ""
  return isAuthAction(action)
}

type RedirectCode = Parameters<RequestEventCommon["redirect"]>[0]
const redirectCodes = new Set<number>([301, 302, 303, 307, 308])

/** Answer an auth endpoint request; always ends the request by throwing Qwik's abort/redirect. */
async function answerAuthRequest(
  event: RequestEventCommon,
  config: QwikAuthConfig,
): Promise<never> {
  const response = await Auth(event.request, config)
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
  if (isAuthRequest(event.url.pathname, basePathOf(config))) await answerAuthRequest(event, config)
  await loadSession(event, config)
}
