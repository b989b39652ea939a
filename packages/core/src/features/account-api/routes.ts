/**
 * `GET {basePath}/account` and `POST {basePath}/account/<op>`: the signed-in user's passkeys,
 * sessions and linked accounts, and the changes to them. Every change is CSRF-checked
 * (double-submit, as `/signout`), needs a recent sign-in (with the second factor when
 * two-factor is on: `step-up.ts`) and counts against the user's limit (`change-limit.ts`).
 *
 * Answers: JSON for scripts (`{ ok: true }`, errors `{ error: <type>, message }` with their
 * status); with `X-Auth-Return-Redirect` the same plus `url`; a plain form post (Accept
 * text/html) a 303 to `callbackUrl` (same-origin rule), with `?error=<type>` on failure —
 * except a failed CSRF check, which never redirects (a 403 page, as everywhere else).
 */

import { warnMissingOnce } from "../../kernel/account/adapter-support.js"
import { currentSession, keptSession } from "../../kernel/account/current-session.js"
import { assertStepUp } from "../../kernel/account/step-up.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import {
  AuthError,
  CallbackRouteError,
  SessionRequired,
  UnknownAction,
} from "../../kernel/errors/errors.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import { errorOutcome } from "../../kernel/http/error-outcome.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "../../kernel/http/outcome.js"
import { publicError } from "../../kernel/http/public-error.js"
import { sessionContext } from "../../kernel/session/from-request.js"
import { toLocation } from "../../kernel/urls/redirect.js"
import { ACCOUNT_OPS, assertOpSupported, isAccountOp, runAccountOp } from "./operations.js"
import { accountView } from "./view.js"

export async function getAccountAction(ctx: RequestContext): Promise<Outcome> {
  try {
    if (ctx.providerId !== undefined) {
      throw new UnknownAction("GET account takes no further path segment (changes are POSTs)")
    }
    warnMissingOnce(ctx.config)
    const current = await currentSession(sessionContext(ctx))
    addCookies(ctx, current.cookies)
    if (!current.signedIn) throw new SessionRequired("Sign in to see your account")
    const view = await accountView(ctx.config, current, current.facts)
    return json(view, 200, NO_CACHE_HEADERS)
  } catch (error) {
    return await accountErrorOutcome(ctx, error)
  }
}

export async function postAccountAction(ctx: RequestContext): Promise<Outcome> {
  try {
    const op = ctx.providerId
    if (!isAccountOp(op)) {
      throw new UnknownAction(`Unknown account change. Valid: ${ACCOUNT_OPS.join(", ")}`)
    }
    await requireCsrf(ctx)
    warnMissingOnce(ctx.config)
    assertOpSupported(op, ctx.config)
    const sctx = sessionContext(ctx)
    const current = await currentSession(sctx)
    addCookies(ctx, current.cookies)
    if (!current.signedIn) throw new SessionRequired("Sign in to change your account")
    await assertStepUp(ctx.config, current)
    await countAccountChange(ctx, current.userId)
    const cookies = await runAccountOp(op, {
      ctx,
      userId: current.userId,
      keep: keptSession(sctx, current),
      body: ctx.parsed.body,
    })
    addCookies(ctx, cookies)
    ctx.logger.debug("account changed", { op })
    if (ctx.returnRedirect || formNavigation(ctx)) return redirect(await destination(ctx))
    return json({ ok: true }, 200, NO_CACHE_HEADERS)
  } catch (error) {
    return await accountErrorOutcome(ctx, error)
  }
}

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
