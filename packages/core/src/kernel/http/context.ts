/**
 * Everything an action needs about one request, built once by `Auth()`. `outCookies`
 * collects cookies as the flow computes them, so an error response still carries them.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { putCookies } from "../cookies/serialize.js"
import type { Logger } from "../logger/logger.js"
import type { CookiesOptions, ResponseCookie } from "../types/cookies.js"
import type { HostMismatch } from "../urls/origin.js"
import type { AuthAction } from "./actions.js"
import type { DeferredTask } from "./deferred.js"
import type { ParsedRequest } from "./parse-request.js"

export interface RequestContext {
  readonly config: ResolvedConfig
  readonly logger: Logger
  readonly request: Request
  readonly parsed: ParsedRequest
  readonly action: AuthAction
  readonly providerId: string | undefined
  /** The app's origin (see `origin.ts`): base of every URL we build and of `redirect`. */
  readonly origin: string
  readonly secureCookies: boolean
  /** This request's cookie names and options (secure or not). */
  readonly cookies: CookiesOptions
  /** `X-Auth-Return-Redirect`: answer redirects with `200 { url }`. */
  readonly returnRedirect: boolean
  readonly outCookies: ResponseCookie[]
  /** Work for after the response (`http/deferred.ts`): mail whose due depends on an account. */
  readonly deferred: DeferredTask[]
  /** The request came to another origin than `AUTH_URL`'s (logged; shown in development). */
  readonly hostMismatch?: HostMismatch
}

/** Leaves `task` for after this request's response. */
export function defer(ctx: Pick<RequestContext, "deferred">, task: DeferredTask): void {
  ctx.deferred.push(task)
}

export function addCookies(ctx: RequestContext, cookies: readonly ResponseCookie[]): void {
  putCookies(ctx.outCookies, cookies)
}

/** `<origin><basePath>/<action>[/<providerId>]`. */
export function actionUrl(
  ctx: Pick<RequestContext, "origin" | "config">,
  action: AuthAction,
  providerId?: string,
): string {
  const base = ctx.config.basePath === "/" ? "" : ctx.config.basePath
  const tail = providerId === undefined ? "" : `/${encodeURIComponent(providerId)}`
  return `${ctx.origin}${base}/${action}${tail}`
}

/**
 * A built-in or custom page URL with query parameters, built with the URL API (so a custom
 * page that already has `?` or is absolute still works, and values are encoded).
 */
export function pageUrl(
  ctx: Pick<RequestContext, "origin" | "config">,
  page: "signIn" | "signOut" | "error" | "verifyRequest" | "newUser",
  params: Record<string, string | undefined> = {},
): string {
  const custom = ctx.config.pages[page]
  const builtIn: Record<typeof page, AuthAction | undefined> = {
    signIn: "signin",
    signOut: "signout",
    error: "error",
    verifyRequest: "verify-request",
    newUser: undefined,
  }
  const action = builtIn[page]
  const url = new URL(custom ?? (action ? actionUrl(ctx, action) : ctx.origin), ctx.origin)
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(key, value)
  }
  return url.href
}
