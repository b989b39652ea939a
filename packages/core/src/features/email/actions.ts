/**
 * The glue between the core's actions and the email flow: the `signin` and `callback`
 * handlers for providers of type `"email"`, registered in `actions/signin/handlers.ts` and
 * `actions/callback/handlers.ts`. Everything else in `features/email` is request-context free.
 */

import { ensureCsrfToken } from "../../kernel/csrf/ensure.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import { MethodNotAllowed } from "../../kernel/errors/errors.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import { actionUrl, pageUrl, type RequestContext } from "../../kernel/http/context.js"
import { type Outcome, redirect } from "../../kernel/http/outcome.js"
import { defaultClientIp } from "../../kernel/rate-limit/client-ip.js"
import { accountStamp } from "../../kernel/revocation/stamp.js"
import { completeSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import { toLocation } from "../../kernel/urls/redirect.js"
import type { EmailConfig } from "./config.js"
import { renderEmailConfirmation } from "./confirm.js"
import { requestEmailSignIn } from "./request.js"
import { verifyEmailSignIn } from "./verify.js"

function asEmail(provider: ProviderConfig): EmailConfig {
  if (provider.type !== "email") throw new TypeError("not an email provider")
  return provider as EmailConfig
}

/**
 * `POST /signin/<id>` (CSRF already checked, callback URL resolved by `signInAction`): send
 * the link, then the verify-request page, whatever the address.
 */
export async function emailSignIn(
  ctx: RequestContext,
  provider: ProviderConfig,
  { callbackUrl }: { callbackUrl: string },
): Promise<Outcome> {
  const email = asEmail(provider)
  const rateLimit = email.rateLimit
  const getClientIp = (rateLimit === false ? undefined : rateLimit?.getClientIp) ?? defaultClientIp
  const result = await requestEmailSignIn({
    provider: email,
    email: ctx.parsed.body.email,
    adapter: ctx.config.adapter,
    secret: ctx.config.secret,
    callbackUrl,
    origin: ctx.origin,
    basePath: ctx.config.basePath,
    signInCallback: ctx.config.callbacks.signIn,
    theme: ctx.config.theme,
    request: ctx.request,
    rateLimit,
    store: ctx.config.store,
    ip: getClientIp(ctx.request),
    logger: ctx.logger,
    stampOf: (userId) => accountStamp(ctx.config, userId),
  })
  if (result.kind === "redirect") {
    const chosen = await ctx.config.callbacks.redirect({ url: result.url, baseUrl: ctx.origin })
    return redirect(toLocation(chosen, ctx.origin))
  }
  ctx.logger.debug("email sign-in requested", { provider: email.id, status: result.status })
  return redirect(pageUrl(ctx, "verifyRequest", { provider: email.id, type: "email" }))
}

/**
 * `GET|HEAD /callback/<id>?token=…&email=…`: the confirm page (the token is not touched).
 * `POST /callback/<id>` from that page: CSRF, consume the token, common sign-in path.
 */
export async function emailCallback(
  ctx: RequestContext,
  provider: ProviderConfig,
): Promise<Outcome> {
  const email = asEmail(provider)
  const { method, query, body } = ctx.parsed
  if (method === "GET" || method === "HEAD") {
    const page = renderEmailConfirmation({
      actionUrl: actionUrl(ctx, "callback", email.id),
      token: query.token,
      email: query.email,
      callbackUrl: query.callbackUrl,
      csrfToken: await ensureCsrfToken(ctx),
      theme: ctx.config.theme,
    })
    // `respond.ts` already sends `Cache-Control: no-store`; `page.headers` also asks for
    // `Referrer-Policy: strict-origin`, which the html outcome cannot carry yet (the page loads
    // nothing and has no links, so no Referer leaves the origin anyway).
    return { kind: "html", status: page.status, html: page.html }
  }
  if (method !== "POST") {
    throw new MethodNotAllowed("The email sign-in link takes GET (confirm page) or POST", {
      details: { allow: "GET, HEAD, POST" },
    })
  }
  await requireCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  const verified = await verifyEmailSignIn({
    provider: email,
    adapter: ctx.config.adapter,
    secret: ctx.config.secret,
    token: body.token,
    email: body.email,
    store: ctx.config.store,
    stampOf: (userId) => accountStamp(ctx.config, userId),
  })
  return completeSignIn(ctx, provider, {
    user: verified.user,
    account: verified.account,
    callbackUrl,
  })
}
