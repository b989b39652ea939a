/**
 * How a change of the signed-in user's own things is answered (the account API, organizations):
 * JSON for scripts (`{ ok: true }`, errors `{ error: <type>, message }` with their status, and
 * the refusal's `reason` or `code`); with `X-Auth-Return-Redirect` the same plus `url`; a plain
 * form post (Accept text/html) a 303 to `callbackUrl` (same-origin rule), with `?error=<type>`
 * on failure — except a failed CSRF check, which never redirects (a 403 page, as everywhere
 * else).
 */
import { AuthError, CallbackRouteError } from "../errors/errors.js"
import { toLocation } from "../urls/redirect.js"
import type { RequestContext } from "./context.js"
import { errorOutcome } from "./error-outcome.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "./outcome.js"
import { publicError } from "./public-error.js"

/** A browser form post without script: answered with a redirect, not JSON. */
export function formNavigation(ctx: RequestContext): boolean {
  if (ctx.returnRedirect || ctx.parsed.method !== "POST") return false
  const accept = ctx.request.headers.get("accept") ?? ""
  return ctx.parsed.contentType === "form" && accept.includes("text/html")
}

/**
 * `callbackUrl` (body, then query) through the `redirect` callback; default the action's URL
 * (`{basePath}/account` for the account API).
 */
export async function destination(ctx: RequestContext, error?: string): Promise<string> {
  const { body, query } = ctx.parsed
  const asked = [body.callbackUrl, query.callbackUrl].find((v) => typeof v === "string" && v)
  const base = ctx.config.basePath === "/" ? "" : ctx.config.basePath
  const fallback = `${ctx.origin}${base}/${ctx.action}`
  const chosen =
    typeof asked === "string"
      ? await ctx.config.callbacks.redirect({ url: asked, baseUrl: ctx.origin })
      : fallback
  const url = new URL(toLocation(typeof chosen === "string" ? chosen : fallback, ctx.origin))
  if (error) url.searchParams.set("error", error)
  return url.href
}

const STATUS: Record<string, number> = {
  InvalidRequest: 400,
  InvalidProvider: 400,
  EmailSignInError: 400,
  // A wrong current password (password and email changes).
  CredentialsSignin: 403,
  RateLimited: 429,
  UnknownAction: 400,
  MethodNotAllowed: 405,
  MissingCSRF: 403,
  StoreError: 503,
  StoreTimeout: 503,
  StoreFull: 503,
}

/**
 * The answer to a refused change of the signed-in user's (the account API, and the features
 * that answer the same way: organizations): JSON with the error's type, message and reason,
 * or a redirect with `?error=` for a form post without script.
 */
export async function accountErrorOutcome(ctx: RequestContext, thrown: unknown): Promise<Outcome> {
  const error =
    thrown instanceof AuthError
      ? thrown
      : new CallbackRouteError("Unexpected error in the account API", { cause: thrown })
  // A failed CSRF check keeps its usual answer: a 403 that drives the browser nowhere.
  if (error.type === "MissingCSRF" && formNavigation(ctx)) return errorOutcome(ctx, error)
  const status = (error as { status?: number }).status ?? STATUS[error.type] ?? 500
  // Faults (an adapter without the method, a store or database outage) are errors; the rest
  // are user events, at debug.
  if (status >= 500) ctx.logger.error(error)
  else {
    ctx.logger.event(
      "account-refused",
      `${error.type}: ${error.message} (${ctx.action} ${ctx.providerId ?? "view"})`,
    )
  }
  const { type, message } =
    status === 500
      ? publicError(undefined)
      : error.type === "NotSupportedByAdapter" // composed here from fixed text and a method name
        ? { type: error.type, message: error.message }
        : publicError(error)
  if (formNavigation(ctx)) return redirect(await destination(ctx, type))
  const url = ctx.returnRedirect ? { url: await destination(ctx, type) } : {}
  const retryAfter = error.details?.retryAfterSeconds
  const headers =
    typeof retryAfter === "number"
      ? { ...NO_CACHE_HEADERS, "Retry-After": String(retryAfter) }
      : NO_CACHE_HEADERS
  // A refused password names the rule it broke (`too-short`, `common`, …) for the page; an
  // organization refusal its code (`last-owner`, `slug-taken`, …).
  const reason =
    type === "PasswordRejected" && typeof error.details?.reason === "string"
      ? { reason: error.details.reason }
      : {}
  const code =
    type === "OrganizationError" && typeof error.details?.code === "string"
      ? { code: error.details.code }
      : {}
  return json({ error: type, message, ...reason, ...code, ...url }, status, headers)
}
