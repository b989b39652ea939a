/**
 * The page endpoints: `GET /signin`, `GET /signout`, `GET /error`, `GET /verify-request`.
 * A configured `pages.*` gets a redirect (with `callbackUrl`/`error` as query parameters);
 * otherwise the built-in page is rendered.
 */
import { resolveCallbackUrl } from "../callback-url.js"
import { actionUrl, pageUrl, type RequestContext } from "../context.js"
import { ensureCsrfToken } from "../csrf/ensure.js"
import type { Outcome } from "../http/outcome.js"
import { redirect } from "../http/outcome.js"
import {
  type PageProvider,
  type PageResponse,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../pages/index.js"
import { scriptHash } from "../pages/passkey-script.js"

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

export function renderBuiltInErrorPage(
  ctx: RequestContext,
  error: string | undefined,
): PageResponse {
  return renderErrorPage({
    error,
    signInUrl: actionUrl(ctx, "signin"),
    homeUrl: ctx.origin,
    theme: ctx.config.theme,
  })
}

export async function signInPage(ctx: RequestContext): Promise<Outcome> {
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { error, code, email } = ctx.parsed.query
  if (ctx.config.pages.signIn) {
    return redirect(pageUrl(ctx, "signIn", { callbackUrl, error }))
  }
  const csrfToken = await ensureCsrfToken(ctx)
  return scriptedHtml(
    renderSignInPage({
      providers: pageProviders(ctx),
      csrfToken,
      callbackUrl,
      theme: ctx.config.theme,
      ...(error ? { error } : {}),
      ...(code ? { code } : {}),
      ...(email ? { email } : {}),
    }),
  )
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
  const error = ctx.parsed.query.error
  const custom = ctx.config.pages.error
  // A custom error page that itself fails would bounce back here: render ours instead.
  if (custom && !isLoop(ctx, custom)) return redirect(pageUrl(ctx, "error", { error }))
  return html(renderBuiltInErrorPage(ctx, error))
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

/** Providers as the sign-in page shows them (credentials forms post to their callback URL). */
export function pageProviders(ctx: RequestContext): PageProvider[] {
  return ctx.config.providers.map((provider) => {
    const entry: PageProvider = {
      id: provider.id,
      name: provider.name,
      type: provider.type,
      signinUrl: actionUrl(ctx, "signin", provider.id),
      callbackUrl: actionUrl(ctx, "callback", provider.id),
    }
    const style = (provider as { style?: PageProvider["style"] }).style
    if (style && typeof style === "object") entry.style = style
    if (provider.type === "credentials") entry.credentials = provider.credentials
    if (provider.type === "webauthn") {
      entry.credentials = provider.formFields ?? {}
      entry.optionsUrl = actionUrl(ctx, "webauthn-options", provider.id)
      entry.conditionalUI = provider.enableConditionalUI === true
    }
    return entry
  })
}
