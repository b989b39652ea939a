/**
 * Which handler serves which action and method. `HEAD` is served wherever `GET` is, by the same
 * handler (the response drops the body). Anything else not listed is a 405.
 */
import { MethodNotAllowed } from "../../errors.js"
import { getAccountAction, postAccountAction } from "../../features/account/routes.js"
import { webauthnOptionsAction } from "../../features/passkey/options-route.js"
import { passwordGet, passwordPost } from "../../features/password/actions.js"
import { twoFactorGet, twoFactorPost } from "../../features/two-factor/routes.js"
import type { RequestContext } from "../context.js"
import type { AuthAction } from "../http/actions.js"
import type { Outcome } from "../http/outcome.js"
import { callbackAction } from "./callback/index.js"
import { csrfAction } from "./csrf.js"
import { errorPage, signInPage, signOutPage, verifyRequestPage } from "./pages.js"
import { providersAction } from "./providers.js"
import { getSessionAction, updateSessionAction } from "./session.js"
import { signInAction } from "./signin/index.js"
import { signOutAction } from "./signout.js"

export type Handler = (ctx: RequestContext) => Promise<Outcome>
type Method = "GET" | "POST"

export const routes: Record<AuthAction, Partial<Record<Method, Handler>>> = {
  providers: { GET: providersAction },
  session: { GET: getSessionAction, POST: updateSessionAction },
  csrf: { GET: csrfAction },
  signin: { GET: signInPageOrRefuse, POST: signInAction },
  signout: { GET: signOutPage, POST: signOutAction },
  callback: { GET: callbackAction, POST: callbackAction },
  "verify-request": { GET: verifyRequestPage },
  error: { GET: errorPage },
  "webauthn-options": { GET: webauthnOptionsAction },
  account: { GET: getAccountAction, POST: postAccountAction },
  "two-factor": { GET: twoFactorGet, POST: twoFactorPost },
  password: { GET: passwordGet, POST: passwordPost },
}

/** The handler, or a `MethodNotAllowed` carrying the `Allow` header value. */
export function route(action: AuthAction, method: string): Handler | MethodNotAllowed {
  const handlers = routes[action]
  const served = method === "HEAD" ? "GET" : method
  const handler = served === "GET" || served === "POST" ? handlers[served] : undefined
  if (handler) return handler
  const allow = Object.keys(handlers)
    .flatMap((m) => (m === "GET" ? ["GET", "HEAD"] : [m]))
    .join(", ")
  return new MethodNotAllowed(`${action} accepts ${allow}, not ${method.slice(0, 16)}`, {
    details: { allow },
  })
}

/** `GET /signin/<provider>` starts nothing (sign-in is a POST); the page has no provider part. */
async function signInPageOrRefuse(ctx: RequestContext): Promise<Outcome> {
  if (ctx.providerId !== undefined) {
    throw new MethodNotAllowed(`signin/${ctx.providerId.slice(0, 64)} accepts POST, not GET`, {
      details: { allow: "POST" },
    })
  }
  return signInPage(ctx)
}
