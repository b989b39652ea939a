/**
 * A thrown error → the outcome the client gets. Protocol errors are JSON with their status;
 * errors in JSON endpoints are JSON; errors in page flows redirect to the sign-in page
 * (`kind: "signIn"`) or the error page with `error=<type>` (and `code=` for
 * `CredentialsSignin`, `retryAfter=` for refusals that end by themselves). The cookies
 * computed so far are kept by the caller.
 */

import { AuthError, CallbackRouteError, StoreError } from "../errors/errors.js"
import { logCoded } from "../logger/logger.js"
import { type PageResponse, renderErrorPage } from "../pages/index.js"
import { actionUrl, pageUrl, type RequestContext } from "./context.js"
import { json, type Outcome } from "./outcome.js"
import { errorBody, publicError } from "./public-error.js"
import { retryAfterHeader, retryAfterOf } from "./retry-after.js"

const STATUS_BY_TYPE: Record<string, number> = {
  InvalidRequest: 400,
  UnknownAction: 400,
  InvalidProvider: 400,
  MethodNotAllowed: 405,
  MissingCSRF: 403,
  UntrustedHost: 500,
}

/** Status of a client-safe error in a JSON endpoint; other client errors are 400. */
const JSON_STATUS_BY_TYPE: Record<string, number> = {
  SessionRequired: 401,
  ReauthenticationRequired: 403,
  RateLimited: 429,
  StoreError: 503,
  StoreTimeout: 503,
  StoreFull: 503,
}

const JSON_ACTIONS = new Set(["session", "csrf", "providers", "webauthn-options", "account"])

/** The built-in error page for `error`, linking back to sign-in. */
export function renderBuiltInErrorPage(
  ctx: RequestContext,
  error: string | undefined,
  retryAfterSeconds?: number,
): PageResponse {
  return renderErrorPage({
    error,
    signInUrl: actionUrl(ctx, "signin"),
    homeUrl: ctx.origin,
    theme: ctx.config.theme,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  })
}

export function errorOutcome(ctx: RequestContext, thrown: unknown): Outcome {
  const error = classify(thrown)
  logError(ctx, error)

  // A configured provider that lacks its settings: the person who clicked its button gets the
  // error page (the log names the missing variables), not the 400 of an unknown provider id.
  const status = error.details?.unusable === true ? undefined : STATUS_BY_TYPE[error.type]
  if (error.type === "MissingCSRF") return csrfRefusal(ctx, error)
  // The account API's flat error body (`{ error: "<type>", message }`), also for a body that
  // could not be parsed before its handler ran.
  if (ctx.action === "account") {
    const { type, message } = publicError(error)
    return json({ error: type, message }, status ?? (type === "Configuration" ? 500 : 400))
  }
  if (status !== undefined) return json(errorBody(error), status, allowHeader(error))
  const { type, code } = publicError(error)
  const page = error.kind === "signIn" ? "signIn" : "error"
  // The sign-in page says why it is asked again (`reauth=1`, as `requireRecentAuth` sends).
  const reauth = error.type === "ReauthenticationRequired" ? "1" : undefined
  const retryAfter = retryAfterOf(error)
  const headers = retryAfterHeader(retryAfter)
  if (JSON_ACTIONS.has(ctx.action) || asksForJson(ctx)) {
    const status = type === "Configuration" ? 500 : (JSON_STATUS_BY_TYPE[type] ?? 400)
    // A sign-in-page error tells a script where a person can start again.
    const url =
      type !== "Configuration" && page === "signIn"
        ? pageUrl(ctx, page, { error: type, reauth })
        : undefined
    return json({ ...errorBody(error), ...(url ? { url } : {}) }, status, headers)
  }
  const url = pageUrl(ctx, page, {
    error: type,
    code,
    retryAfter: retryAfter?.toString(),
    reauth,
  })
  return { kind: "redirect", url, ...(headers ? { headers } : {}) }
}

/**
 * A script that asked for JSON only (`Accept: application/json`, no `text/html`) gets the typed
 * error rather than a redirect to a page. `X-Auth-Return-Redirect` callers keep Auth.js's
 * `200 { url }` answer, which their clients expect.
 */
function asksForJson(ctx: RequestContext): boolean {
  if (ctx.returnRedirect) return false
  const accept = ctx.request.headers.get("accept") ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}

/**
 * The error this outcome is about. A failed check whose store could not answer (the OAuth
 * state's replay guard) is a store outage, not a stale attempt: the user retrying at once
 * would fail again, and the operator must hear about it.
 */
function classify(thrown: unknown): AuthError {
  if (!(thrown instanceof AuthError)) {
    return new CallbackRouteError("Unexpected error while handling an auth request", {
      cause: thrown,
    })
  }
  if (thrown.type !== "InvalidCheck" || thrown.details?.reason !== "store-unavailable")
    return thrown
  if (thrown.cause instanceof StoreError) return thrown.cause
  return new StoreError("The store could not answer the OAuth state's consumeOnce command", {
    cause: thrown.cause,
    details: { operation: "consumeOnce" },
  })
}

/**
 * Faults are `error` lines. Refusals (a stale OAuth attempt, a wrong password, a sign-in that
 * is not recent enough) are one line under the error's code, naming what failed and never a
 * value: a warning for a failed attempt, `debug` for a user event.
 */
function logError(ctx: RequestContext, error: AuthError): void {
  if (error.warning === undefined) {
    ctx.logger.error(error)
    return
  }
  const facts = [`provider "${ctx.providerId ?? "?"}"`]
  const { check, reason } = error.details ?? {}
  if (typeof check === "string") facts.push(`check: ${check}`)
  if (typeof reason === "string") facts.push(`reason: ${reason}`)
  const { code } = publicError(error)
  if (code !== undefined) facts.push(`code: ${code}`)
  logCoded(ctx.logger, error.warning, `${error.type}: ${error.message} (${facts.join(", ")})`)
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
