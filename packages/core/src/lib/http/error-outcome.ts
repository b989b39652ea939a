/**
 * A thrown error → the outcome the client gets. Protocol errors are JSON with their status;
 * errors in JSON endpoints are JSON; errors in page flows redirect to the sign-in page
 * (`kind: "signIn"`) or the error page with `error=<type>` (and `code=` for
 * `CredentialsSignin`). The cookies computed so far are kept by the caller.
 */
import { AuthError, CallbackRouteError } from "../../errors.js"
import { renderBuiltInErrorPage } from "../actions/pages.js"
import { pageUrl, type RequestContext } from "../context.js"
import { json, type Outcome, redirect } from "./outcome.js"
import { errorBody, publicError } from "./public-error.js"

const STATUS_BY_TYPE: Record<string, number> = {
  InvalidRequest: 400,
  UnknownAction: 400,
  InvalidProvider: 400,
  MethodNotAllowed: 405,
  MissingCSRF: 403,
  UntrustedHost: 500,
}

const JSON_ACTIONS = new Set(["session", "csrf", "providers", "webauthn-options"])

export function errorOutcome(ctx: RequestContext, thrown: unknown): Outcome {
  const error =
    thrown instanceof AuthError
      ? thrown
      : new CallbackRouteError("Unexpected error while handling an auth request", { cause: thrown })
  ctx.logger.error(error)

  // A configured provider that lacks its settings: the person who clicked its button gets the
  // error page (the log names the missing variables), not the 400 of an unknown provider id.
  const status = error.details?.unusable === true ? undefined : STATUS_BY_TYPE[error.type]
  if (error.type === "MissingCSRF") return csrfRefusal(ctx, error)
  if (status !== undefined) return json(errorBody(error), status, allowHeader(error))
  if (JSON_ACTIONS.has(ctx.action)) {
    const { type } = publicError(error)
    return json(errorBody(error), type === "Configuration" ? 500 : 400)
  }
  const { type, code } = publicError(error)
  const page = error.kind === "signIn" ? "signIn" : "error"
  return redirect(pageUrl(ctx, page, { error: type, code }))
}

function allowHeader(error: AuthError): Record<string, string> | undefined {
  const allow = error.details?.allow
  return typeof allow === "string" ? { Allow: allow } : undefined
}

/**
 * A failed CSRF check is a 403, not a redirect: a cross-site POST must not be able to drive
 * the browser anywhere. A form navigation gets the error page (status 403); fetch callers get
 * JSON, with `url` of the sign-in page so Auth.js-style clients can still navigate there.
 */
function csrfRefusal(ctx: RequestContext, error: AuthError): Outcome {
  const headers = ctx.request.headers
  const navigation =
    headers.get("sec-fetch-mode") === "navigate" ||
    (!ctx.returnRedirect &&
      ctx.parsed.contentType === "form" &&
      (headers.get("accept") ?? "").includes("text/html"))
  if (navigation) {
    const page = renderBuiltInErrorPage(ctx, "MissingCSRF")
    return { kind: "html", status: 403, html: page.html }
  }
  return json({ ...errorBody(error), url: pageUrl(ctx, "signIn", { error: "MissingCSRF" }) }, 403)
}
