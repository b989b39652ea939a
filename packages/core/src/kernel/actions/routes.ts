/**
 * Which handler serves which action and method: the kernel's own actions, then those the
 * configured features declare (`feature.routes`). `HEAD` is served wherever `GET` is, by the
 * same handler (the response drops the body). Anything else not listed is a 405; an action no
 * configured feature serves (`password` without the `Password` provider, say) a 400.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { InvalidProvider, MethodNotAllowed, UnknownAction } from "../errors/errors.js"
import { featuresOf, type Handler } from "../feature/feature.js"
import type { AuthAction } from "../http/actions.js"
import type { RequestContext } from "../http/context.js"
import type { Outcome } from "../http/outcome.js"
import { callbackAction } from "./callback.js"
import { csrfAction } from "./csrf.js"
import { errorPage, signInPage, signOutPage, verifyRequestPage } from "./pages.js"
import { providersAction } from "./providers.js"
import { getSessionAction, updateSessionAction } from "./session.js"
import { signInAction } from "./signin.js"
import { signOutAction } from "./signout.js"

export type { Handler }

type Method = "GET" | "POST"
type Routes = Partial<Record<Method, Handler>>

const kernelRoutes: Partial<Record<AuthAction, Routes>> = {
  providers: { GET: providersAction },
  session: { GET: getSessionAction, POST: updateSessionAction },
  csrf: { GET: csrfAction },
  signin: { GET: signInPageOrRefuse, POST: signInAction },
  signout: { GET: signOutPage, POST: signOutAction },
  callback: { GET: callbackAction, POST: callbackAction },
  "verify-request": { GET: verifyRequestPage },
  error: { GET: errorPage },
}

/** What brings the feature of an action, for the answer to an app that lacks it. */
const TURNED_ON_BY: Partial<Record<AuthAction, string>> = {
  account:
    "the account API: `account: Account()` from @latchkey/core/account, or Password(), Passkey() or TwoFactor()",
  password: "the Password provider",
  "two-factor": "`twoFactor: TwoFactor({ … })` from @latchkey/core/two-factor",
}

/** The handlers of `action`: the kernel's, else the first configured feature's that has it. */
function handlersOf(config: ResolvedConfig, action: AuthAction): Routes | undefined {
  const own = kernelRoutes[action]
  if (own) return own
  for (const feature of featuresOf(config)) {
    const routes = feature.routes?.[action]
    if (routes) return routes
  }
  return undefined
}

/**
 * The handler, a `MethodNotAllowed` carrying the `Allow` header value, or, when no configured
 * feature serves the action, `InvalidProvider` for Auth.js's per-provider `webauthn-options`
 * (as Auth.js answers it for a provider that is not a passkey one) and `UnknownAction` else.
 */
export function route(
  config: ResolvedConfig,
  action: AuthAction,
  method: string,
): Handler | MethodNotAllowed | UnknownAction | InvalidProvider {
  const handlers = handlersOf(config, action)
  if (!handlers) {
    return action === "webauthn-options"
      ? new InvalidProvider("No passkey (WebAuthn) provider is configured")
      : new UnknownAction(
          `Nothing configured answers ${action}: it belongs to a feature this app does not use${
            TURNED_ON_BY[action] ? ` (${TURNED_ON_BY[action]})` : ""
          }`,
        )
  }
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
