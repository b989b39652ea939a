/**
 * `Auth(request, config)`: one request, one pass — route, origin, config check, body, action,
 * response. No path out of here is a 500 with a stack: every failure has a typed body.
 */

import { route } from "./actions/routes.js"
import type { AuthConfig } from "./config/auth-config.js"
import { type ResolvedConfig, resolveConfig } from "./config/resolve.js"
import { AuthError, CallbackRouteError, InvalidProvider, UnknownAction } from "./errors/errors.js"
import { configErrorPage, isPageRequest } from "./http/config-error-page.js"
import type { RequestContext } from "./http/context.js"
import { type AuthRequestOptions, startDeferred } from "./http/deferred.js"
import { errorOutcome } from "./http/error-outcome.js"
import { json, type Outcome } from "./http/outcome.js"
import { parseCookieHeader, parseQuery, parseRoute, readBody } from "./http/parse-request.js"
import { errorBody } from "./http/public-error.js"
import { toResponse } from "./http/respond.js"
import { hostMismatch, resolveOrigin } from "./urls/origin.js"

/**
 * Answers one auth request. `options.waitUntil` is the platform's way to keep work alive after
 * the response (Cloudflare's `ctx.waitUntil`): mail whose due depends on an account is sent then
 * (`http/deferred.ts`).
 */
export async function Auth(
  request: Request,
  config: AuthConfig,
  options: AuthRequestOptions = {},
): Promise<Response> {
  // Read once: each getter on undici's Request is a call, not a field.
  const method = request.method.toUpperCase()
  const response = await answer(request, method, config, options)
  // HEAD is served wherever GET is (mail scanners probe links with it): same status and
  // headers, never a body.
  return method === "HEAD" ? withoutBody(response) : response
}

function withoutBody(response: Response): Response {
  return new Response(null, { status: response.status, headers: response.headers })
}

async function answer(
  request: Request,
  method: string,
  config: AuthConfig,
  options: AuthRequestOptions,
): Promise<Response> {
  let resolved: ResolvedConfig | undefined
  try {
    resolved = resolveConfig(config)
    return await handle(request, method, resolved, options)
  } catch (thrown) {
    // Last line: a bug must still produce a typed, stack-free answer.
    resolved?.logger.error(
      thrown instanceof AuthError
        ? thrown
        : new CallbackRouteError("Unhandled error", { cause: thrown }),
    )
    return bare(500, errorBody(thrown))
  }
}

function bare(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers },
  })
}

async function handle(
  request: Request,
  method: string,
  config: ResolvedConfig,
  options: AuthRequestOptions,
): Promise<Response> {
  const { logger } = config
  const url = new URL(request.url)

  const target = parseRoute(url.pathname, config.basePath)
  if ("error" in target) {
    logger.error(target.error)
    return bare(400, errorBody(target.error))
  }
  const handler = route(config, target.action, method)
  if (handler instanceof UnknownAction || handler instanceof InvalidProvider) {
    logger.error(handler)
    return bare(400, errorBody(handler))
  }
  if (handler instanceof AuthError) {
    logger.error(handler)
    return bare(405, errorBody(handler), { Allow: String(handler.details?.allow ?? "") })
  }
  const origin = resolveOrigin(request, config, url)
  if ("error" in origin) {
    logger.error(origin.error)
    if (isPageRequest(target.action, method)) return untrustedHostPage(config, url, method)
    return bare(500, errorBody(origin.error))
  }
  logger.debug("request", { action: target.action, method, provider: target.providerId })
  const mismatch = hostMismatch(request, config, url)
  if (mismatch) {
    logger.warn(
      "host-mismatch",
      `(request to ${mismatch.requested}, AUTH_URL is ${mismatch.configured})`,
    )
  }

  const secureCookies = config.useSecureCookies ?? origin.protocol === "https:"
  const ctx: RequestContext = {
    config,
    logger,
    request,
    parsed: {
      action: target.action,
      providerId: target.providerId,
      method,
      url,
      query: parseQuery(url),
      cookies: parseCookieHeader(request.headers.get("cookie")),
      body: Object.create(null),
      rawBody: undefined,
      contentType: "none",
    },
    action: target.action,
    providerId: target.providerId,
    origin: origin.origin,
    secureCookies,
    cookies: secureCookies ? config.cookies.secure : config.cookies.insecure,
    returnRedirect: request.headers.has("x-auth-return-redirect"),
    outCookies: [],
    deferred: [],
    ...(mismatch ? { hostMismatch: mismatch } : {}),
  }
  const respond = (outcome: Outcome) =>
    toResponse(outcome, {
      method,
      origin: ctx.origin,
      returnRedirect: ctx.returnRedirect,
      cookies: ctx.outCookies,
    })

  if (config.configError) return respond(configErrorOutcome(ctx))

  let full = ctx
  if (method === "POST") {
    try {
      const body = await readBody(request)
      full = { ...ctx, parsed: { ...ctx.parsed, ...body } }
    } catch (error) {
      return respond(errorOutcome(ctx, error))
    }
  }
  let outcome: Outcome
  try {
    outcome = await handler(full)
  } catch (error) {
    outcome = errorOutcome(full, error)
  }
  const response = respond(outcome)
  startDeferred(ctx.deferred, logger, options)
  return response
}

/**
 * The configuration is unusable (already logged with every problem, once). Page requests get
 * the custom error page or the built-in one (500); everything else a 500 JSON body.
 */
function configErrorOutcome(ctx: RequestContext): Outcome {
  if (isPageRequest(ctx.action, ctx.parsed.method)) {
    return configErrorPage(ctx.config, ctx.parsed.url, ctx.origin)
  }
  return json(errorBody(ctx.config.configError), 500)
}

/**
 * The host is not trusted, so there is no origin to build URLs from: the page (or a redirect
 * to `pages.error`) uses paths only, which the browser resolves against the URL it asked for.
 */
function untrustedHostPage(config: ResolvedConfig, url: URL, method: string): Response {
  const outcome = configErrorPage(config, url, undefined)
  if (outcome.kind === "redirect") {
    return new Response(null, {
      status: 302,
      headers: { Location: outcome.url, "Cache-Control": "no-store" },
    })
  }
  return toResponse(outcome, { method, origin: url.origin, returnRedirect: false, cookies: [] })
}
