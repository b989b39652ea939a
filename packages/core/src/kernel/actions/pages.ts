/**
 * The page endpoints: `GET /signin`, `GET /signout`, `GET /error`, `GET /verify-request`.
 * A configured `pages.*` gets a redirect (with `callbackUrl`/`error` as query parameters);
 * otherwise the built-in page is rendered.
 */

import { ensureCsrfToken } from "../csrf/ensure.js"
import { featureOf } from "../feature/feature.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { actionUrl, pageUrl, type RequestContext } from "../http/context.js"
import { renderBuiltInErrorPage } from "../http/error-outcome.js"
import type { Outcome } from "../http/outcome.js"
import { redirect } from "../http/outcome.js"
import {
  parseRetryAfter,
  retryAfterHeader,
  STORE_OUTAGE_RETRY_AFTER_SECONDS,
} from "../http/retry-after.js"
import {
  type PageProvider,
  type PageResponse,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../pages/index.js"
import { scriptHash } from "../pages/script-hash.js"
import { readProcessEnv } from "../runtime/process-env.js"

const html = (page: PageResponse): Outcome => ({
  kind: "html",
  status: page.status,
  html: page.html,
})

/** A page with our inline scripts: the CSP names each one by its hash. */
async function scriptedHtml(page: PageResponse): Promise<Outcome> {
  if (!page.scripts || page.scripts.length === 0) return html(page)
  const scriptHashes = await Promise.all(page.scripts.map(scriptHash))
  return { kind: "html", status: page.status, html: page.html, scriptHashes }
}

/**
 * The wait the error page announces (and sends as `Retry-After`): the rate limit's remaining
 * window from `retryAfter=`, a fixed pause for a store outage, nothing for other errors.
 */
function pageRetryAfter(error: string | undefined, retryAfter: string | undefined) {
  if (error === "StoreError" || error === "StoreTimeout" || error === "StoreFull")
    return STORE_OUTAGE_RETRY_AFTER_SECONDS
  return error === "RateLimited" ? parseRetryAfter(retryAfter) : undefined
}

export async function signInPage(ctx: RequestContext): Promise<Outcome> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { error, code, email } = ctx.parsed.query
  const reauth = ctx.parsed.query.reauth === "1"
  if (ctx.config.pages.signIn) {
    return redirect(
      pageUrl(ctx, "signIn", { callbackUrl, error, ...(reauth ? { reauth: "1" } : {}) }),
    )
  }
  const csrfToken = await ensureCsrfToken(ctx)
  const { providers, scripts } = pageProviders(ctx)
  return scriptedHtml(
    renderSignInPage({
      providers,
      scripts,
      csrfToken,
      callbackUrl,
      theme: ctx.config.theme,
      ...(error ? { error } : {}),
      ...(code ? { code } : {}),
      ...(email ? { email } : {}),
      ...(reauth ? { reauth } : {}),
      ...developerNotice(ctx),
    }),
  )
}

/**
 * In development, the sign-in page says what the log says about the host: the developer is
 * the one looking at it. Never in production, where the Host header is anyone's to set.
 */
function developerNotice(ctx: RequestContext): { developerNotice?: string } {
  const mismatch = ctx.hostMismatch
  if (!mismatch || readProcessEnv().NODE_ENV === "production") return {}
  return {
    developerNotice: `Development notice: this page was opened at ${mismatch.requested}, but AUTH_URL is ${mismatch.configured}. Signing in here sets the session cookie for this host and then sends you to AUTH_URL's host, where you would look signed out. Open the app at ${mismatch.configured} instead.`,
  }
}

export async function signOutPage(ctx: RequestContext): Promise<Outcome> {
  if (ctx.config.pages.signOut) return redirect(pageUrl(ctx, "signOut"))
  const callbackUrl = await resolveCallbackUrl(ctx)
  const csrfToken = await ensureCsrfToken(ctx)
  return html(
    renderSignOutPage({
      csrfToken,
      actionUrl: actionUrl(ctx, "signout"),
      callbackUrl,
      theme: ctx.config.theme,
    }),
  )
}

export async function errorPage(ctx: RequestContext): Promise<Outcome> {
  const { error, retryAfter } = ctx.parsed.query
  const custom = ctx.config.pages.error
  const seconds = pageRetryAfter(error, retryAfter)
  // A custom error page that itself fails would bounce back here: render ours instead.
  if (custom && !isLoop(ctx, custom)) {
    return redirect(pageUrl(ctx, "error", { error, retryAfter: seconds?.toString() }))
  }
  const page = renderBuiltInErrorPage(ctx, error, seconds)
  const headers = retryAfterHeader(seconds)
  return { kind: "html", status: page.status, html: page.html, ...(headers ? { headers } : {}) }
}

export async function verifyRequestPage(ctx: RequestContext): Promise<Outcome> {
  if (ctx.config.pages.verifyRequest) {
    return redirect(pageUrl(ctx, "verifyRequest", { ...ctx.parsed.query }))
  }
  return html(
    renderVerifyRequestPage({
      homeUrl: ctx.origin,
      theme: ctx.config.theme,
      ...(ctx.parsed.query.email ? { email: ctx.parsed.query.email } : {}),
    }),
  )
}

function isLoop(ctx: RequestContext, custom: string): boolean {
  const target = new URL(custom, ctx.origin)
  const here = ctx.parsed.url
  return target.origin === ctx.origin && target.pathname === here.pathname
}

/**
 * Providers as the sign-in page shows them (credentials forms post to their callback URL), each
 * completed by its feature (a passkey form's URLs, a password form's links), and the scripts
 * their entries need.
 */
export function pageProviders(ctx: RequestContext): {
  providers: PageProvider[]
  scripts: string[]
} {
  const scripts: string[] = []
  const providers = ctx.config.providers.map((provider) => {
    const entry: PageProvider = {
      id: provider.id,
      name: provider.name,
      type: provider.type,
      signinUrl: actionUrl(ctx, "signin", provider.id),
      callbackUrl: actionUrl(ctx, "callback", provider.id),
    }
    const { style, credentials } = provider as {
      style?: PageProvider["style"]
      credentials?: PageProvider["credentials"]
    }
    if (style && typeof style === "object") entry.style = style
    if (provider.type === "credentials") entry.credentials = credentials
    const part = featureOf(provider)?.signInPage?.(ctx, provider)
    if (part?.script) scripts.push(part.script)
    return part?.provider ? { ...entry, ...part.provider } : entry
  })
  return { providers, scripts }
}
