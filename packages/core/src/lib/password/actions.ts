/**
 * `{basePath}/password/<op>`: the account flows of the `Password` provider that are not the
 * sign-in itself (that is `POST /callback/<id>`, as for credentials).
 *
 * | op | GET | POST |
 * |---|---|---|
 * | `signup` | the sign-up form | create an unproven account and mail the verification link |
 * | `resend` | — | mail the verification link again |
 * | `forgot` | the forgot form | mail a reset link |
 * | `reset` | the link's page: new-password form | set the password, end every session, sign in |
 * | `verify` | the link's page: a confirm button | prove the address |
 * | `email-change` | the link's page: a confirm button | move the account to the new address |
 * | `sent` | "check your email" | — |
 *
 * Every POST is CSRF-checked. Fetch clients get JSON (`{ ok: true }`, errors
 * `{ error: <type>, message, code? }` with their status); a form post without script gets a
 * redirect (the page again with `?error=` on a refusal). Sign-up, resend and forgot answer the
 * same whatever the address (status, body, cookies, one password hash for sign-up), and mail
 * failures are logged, never shown.
 */
import type { AdapterUser } from "../../adapters.js"
import {
  AuthError,
  CallbackRouteError,
  InvalidProvider,
  MethodNotAllowed,
  UnknownAction,
  Verification,
} from "../../errors.js"
import { claimAddress } from "../account/claim.js"
import { isEmailProven, markVerified } from "../account/email-ownership.js"
import { completeSignIn } from "../actions/callback/complete-sign-in.js"
import { resolveCallbackUrl } from "../callback-url.js"
import { actionUrl, pageUrl, type RequestContext } from "../context.js"
import { ensureCsrfToken } from "../csrf/ensure.js"
import { requireCsrf } from "../csrf/require.js"
import { normalizeIdentifier } from "../email/normalize-identifier.js"
import { emitEvent } from "../events.js"
import { errorOutcome } from "../http/error-outcome.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "../http/outcome.js"
import { publicError } from "../http/public-error.js"
import type { PageResponse } from "../pages/layout.js"
import { endUserSessions } from "../revocation/api.js"
import { canSendMail, findPasswordProvider, type PasswordConfig } from "./config.js"
import { consumeLink, type LinkPurpose, macOnly } from "./links.js"
import { enforceMailRequestLimit, sendLinkMail } from "./mail.js"
import {
  renderCheckMailPage,
  renderConfirmAddressPage,
  renderForgotPage,
  renderResetPage,
  renderSignUpPage,
} from "./pages.js"
import { checkNewPassword } from "./policy.js"
import {
  customPasswordPage,
  linkKeys,
  PASSWORD_OPS as OPS,
  type PasswordOp,
  passwordPageUrl,
  passwordUrl,
} from "./urls.js"

type Op = PasswordOp

function opOf(ctx: RequestContext): Op {
  const op = ctx.providerId
  if (!(OPS as readonly string[]).includes(op ?? "")) {
    throw new UnknownAction(
      `Unknown password action. Valid: ${OPS.map((o) => `password/${o}`).join(", ")}`,
    )
  }
  return op as Op
}

function providerOf(ctx: RequestContext): PasswordConfig {
  const provider = findPasswordProvider(ctx.config.providers)
  if (!provider) {
    throw new InvalidProvider("No Password provider is configured", {
      details: { reason: "no-password-provider" },
    })
  }
  return provider
}

const html = (page: PageResponse, headers?: Record<string, string>): Outcome => ({
  kind: "html",
  status: page.status,
  html: page.html,
  headers: { ...NO_CACHE_HEADERS, ...headers },
})

/** Pages whose URL carries a live token: a Referer is only the origin, no robot may index it. */
const LINK_PAGE_HEADERS = {
  "Referrer-Policy": "strict-origin",
  "X-Robots-Tag": "noindex, nofollow",
}

// ---------------------------------------------------------------------------------------------
// GET

export async function passwordGet(ctx: RequestContext): Promise<Outcome> {
  try {
    const op = opOf(ctx)
    const provider = providerOf(ctx)
    const { query } = ctx.parsed
    const theme = ctx.config.theme
    const signInUrl = pageUrl(ctx, "signIn")
    const minLength = provider.passwordAccount.policy.minLength
    // The app's own page, when it has one, gets the same query (a reset link's token too).
    const custom =
      op === "verify" || op === "email-change"
        ? undefined
        : customPasswordPage(ctx, op, { ...query })
    if (custom !== undefined) return redirect(custom)
    switch (op) {
      case "signup":
      case "forgot": {
        const props = {
          actionUrl: actionUrl(ctx, "password", op),
          csrfToken: await ensureCsrfToken(ctx),
          ...(query.callbackUrl ? { callbackUrl: query.callbackUrl } : {}),
          signInUrl,
          theme,
          minLength,
          ...noticeOf(query),
        }
        return html(op === "signup" ? renderSignUpPage(props) : renderForgotPage(props))
      }
      case "sent":
        return html(renderCheckMailPage({ theme, signInUrl }))
      case "reset":
      case "verify":
      case "email-change": {
        const props = {
          actionUrl: actionUrl(ctx, "password", op),
          token: boundedString(query.token, 512),
          uid: boundedString(query.uid, 512),
          email: boundedString(query.email, 320),
          csrfToken: await ensureCsrfToken(ctx),
          theme,
        }
        if (!props.token || !props.uid || !props.email) {
          throw new Verification("The link is incomplete", { details: { reason: "malformed" } })
        }
        const page =
          op === "reset"
            ? renderResetPage({
                ...props,
                token: props.token,
                uid: props.uid,
                email: props.email,
                minLength,
              })
            : renderConfirmAddressPage({
                ...props,
                token: props.token,
                uid: props.uid,
                email: props.email,
                kind: op,
              })
        return html(page, LINK_PAGE_HEADERS)
      }
      default:
        throw new MethodNotAllowed(`password/${op} accepts POST, not GET`, {
          details: { allow: "POST" },
        })
    }
  } catch (error) {
    return errorOutcome(ctx, error)
  }
}

function boundedString(value: unknown, max: number): string | undefined {
  return typeof value === "string" && value !== "" && value.length <= max ? value : undefined
}

/** A refusal carried back to a form page: from a fixed table, never text from the URL. */
function noticeOf(query: Readonly<Record<string, string>>): { notice?: string } {
  const type = query.error
  if (!type) return {}
  if (type === "PasswordRejected") {
    const byReason: Record<string, string> = {
      "too-short": "That password is too short.",
      "too-long": "That password is too long.",
      common: "That password is one of the most common ones. Choose one nobody else would.",
      breached: "That password appeared in a data breach. Choose another one.",
      email: "Do not use your email address as your password.",
    }
    return { notice: byReason[query.reason ?? ""] ?? "Choose another password." }
  }
  const known: Record<string, string> = {
    EmailSignInError: "Enter a valid email address.",
    RateLimited: "Too many attempts. Wait a few minutes and try again.",
  }
  return { notice: known[type] ?? "That did not work. Try again." }
}

// ---------------------------------------------------------------------------------------------
// POST

export async function passwordPost(ctx: RequestContext): Promise<Outcome> {
  let op: Op | undefined
  try {
    op = opOf(ctx)
    if (op === "sent") {
      throw new MethodNotAllowed("password/sent accepts GET, not POST", {
        details: { allow: "GET, HEAD" },
      })
    }
    const provider = providerOf(ctx)
    await requireCsrf(ctx)
    switch (op) {
      case "signup":
        await signUp(ctx, provider)
        return done(ctx, passwordPageUrl(ctx, "sent"))
      case "resend":
        await resend(ctx, provider)
        return done(ctx, passwordPageUrl(ctx, "sent"))
      case "forgot":
        await forgot(ctx, provider)
        return done(ctx, passwordPageUrl(ctx, "sent"))
      case "verify":
        await verify(ctx, provider)
        return done(ctx, pageUrl(ctx, "signIn"))
      case "email-change":
        await confirmEmailChange(ctx, provider)
        return done(ctx, await resolveCallbackUrl(ctx))
      case "reset": {
        const signedIn = await reset(ctx, provider)
        // A fetch client gets JSON with where to go (the session cookie is set either way).
        if (signedIn.kind !== "redirect" || ctx.returnRedirect || formNavigation(ctx)) {
          return signedIn
        }
        return json({ ok: true, url: signedIn.url }, 200, NO_CACHE_HEADERS)
      }
    }
  } catch (error) {
    return passwordErrorOutcome(ctx, op, error)
  }
}

/** A fetch client gets `{ ok: true }`; a form post (or `X-Auth-Return-Redirect`) the next page. */
function done(ctx: RequestContext, next: string): Outcome {
  if (ctx.returnRedirect || formNavigation(ctx)) return redirect(next)
  return json({ ok: true }, 200, NO_CACHE_HEADERS)
}

function formNavigation(ctx: RequestContext): boolean {
  const accept = ctx.request.headers.get("accept") ?? ""
  return ctx.parsed.contentType === "form" && accept.includes("text/html")
}

const STATUS: Record<string, number> = {
  InvalidRequest: 400,
  UnknownAction: 400,
  InvalidProvider: 400,
  EmailSignInError: 400,
  Verification: 400,
  AccountNotLinked: 409,
  MissingCSRF: 403,
  MethodNotAllowed: 405,
  RateLimited: 429,
  StoreError: 503,
  StoreTimeout: 503,
  StoreFull: 503,
}

function passwordErrorOutcome(ctx: RequestContext, op: Op | undefined, thrown: unknown): Outcome {
  const error =
    thrown instanceof AuthError
      ? thrown
      : new CallbackRouteError("Unexpected error in a password action", { cause: thrown })
  // A CSRF refusal keeps its usual answer (a 403 that drives the browser nowhere).
  if (error.type === "MissingCSRF" || error.type === "MethodNotAllowed") {
    return errorOutcome(ctx, error)
  }
  const status =
    (error as { status?: number }).status ?? STATUS[error.type] ?? (error.clientSafe ? 400 : 500)
  if (status >= 500) ctx.logger.error(error)
  else
    ctx.logger.warn(
      "credentials-refused",
      `${error.type}: ${error.message} (password/${op ?? "?"})`,
    )
  const { type, message } = publicError(status >= 500 ? undefined : error)
  const reason =
    type === "PasswordRejected" && typeof error.details?.reason === "string"
      ? error.details.reason
      : undefined
  if (formNavigation(ctx) && op !== undefined && status < 500) {
    if (op === "signup" || op === "forgot" || op === "resend") {
      const back = op === "resend" ? "signup" : op
      return redirect(passwordPageUrl(ctx, back, { error: type, ...(reason ? { reason } : {}) }))
    }
    if (op === "reset" && type === "PasswordRejected") {
      // The link was not consumed (the policy is checked first): back to its form.
      const { token, uid, email } = ctx.parsed.body
      if (typeof token === "string" && typeof uid === "string" && typeof email === "string") {
        return redirect(
          passwordPageUrl(ctx, "reset", {
            token,
            uid,
            email,
            error: type,
            ...(reason ? { reason } : {}),
          }),
        )
      }
    }
    return errorOutcome(ctx, error)
  }
  return json({ error: type, message, ...(reason ? { reason } : {}) }, status, NO_CACHE_HEADERS)
}

// ---------------------------------------------------------------------------------------------
// The flows

/**
 * Sign-up. A new address: an unproven user with the password, and the verification link. An
 * address that has an account: nothing is created, the owner gets a notice with a reset link.
 * Both hash the password once and answer the same.
 */
async function signUp(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const settings = provider.passwordAccount
  const adapter = ctx.config.adapter!
  const { body } = ctx.parsed
  const email = normalizeIdentifier(body.email)
  const password = await checkNewPassword(body.password, settings.policy, { email })
  await enforceMailRequestLimit(ctx, provider, "sign-up")
  const existing = await adapter.getUserByEmail!(email)
  // Hashed whether or not the account is created: the answer takes as long either way.
  const hash = await settings.hasher.hash(password)
  if (existing) {
    ctx.logger.debug("password sign-up for an address that has an account")
    if (!canSendMail(settings)) return
    await sendLinkMail(
      ctx,
      provider,
      { purpose: "reset", userId: existing.id, email },
      "account-exists",
    )
    return
  }
  const name = typeof body.name === "string" && body.name.length <= 256 ? body.name.trim() : ""
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: null,
    ...(name ? { name } : {}),
  })
  await adapter.setPasswordHash!(user.id, hash)
  await emitEvent(ctx.config.events, ctx.logger, "createUser", { user })
  if (canSendMail(settings)) await sendVerification(ctx, provider, user.id, email)
}

async function sendVerification(
  ctx: RequestContext,
  provider: PasswordConfig,
  userId: string,
  email: string,
): Promise<void> {
  await sendLinkMail(ctx, provider, { purpose: "verify", userId, email })
}

/** "Send the link again": only an unproven account with a password gets one; same answer always. */
async function resend(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const email = normalizeIdentifier(ctx.parsed.body.email)
  await enforceMailRequestLimit(ctx, provider, "verification mail")
  const adapter = ctx.config.adapter!
  const user = await adapter.getUserByEmail!(email)
  const due =
    user !== null &&
    !isEmailProven(user) &&
    (await adapter.getPasswordHash!(user.id)) !== null &&
    canSendMail(provider.passwordAccount)
  if (due) await sendVerification(ctx, provider, user.id, email)
  else await macOnly(linkKeys(ctx, provider))
}

/** "Forgot password": a reset link to an address that has an account; same answer always. */
async function forgot(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const email = normalizeIdentifier(ctx.parsed.body.email)
  await enforceMailRequestLimit(ctx, provider, "password reset")
  const settings = provider.passwordAccount
  const user = await ctx.config.adapter!.getUserByEmail!(email)
  if (!user || !canSendMail(settings)) {
    // The MAC a link costs, so an unknown address answers after the same work up to the mail.
    await macOnly(linkKeys(ctx, provider))
    return
  }
  await sendLinkMail(ctx, provider, { purpose: "reset", userId: user.id, email })
}

/** The user a consumed link is for, if it still has the address the link was mailed to. */
async function linkedUser(
  ctx: RequestContext,
  userId: string,
  email: string,
): Promise<AdapterUser> {
  const user = await ctx.config.adapter!.getUser!(userId)
  if (!user || user.email !== email) {
    throw new Verification("The link is for an address this account no longer has", {
      details: { reason: "address-changed" },
    })
  }
  return user
}

async function consume(ctx: RequestContext, provider: PasswordConfig, purpose: LinkPurpose) {
  const { body } = ctx.parsed
  return consumeLink(
    linkKeys(ctx, provider),
    { purpose, userId: body.uid, email: body.email },
    body.token,
  )
}

/**
 * The sign-up verification link: minted for this row by its own sign-up, so it is the row
 * confirming its own address (ownership rule 3): marked proven, nothing removed, no session
 * (the person signs in with the password they chose).
 */
async function verify(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const link = await consume(ctx, provider, "verify")
  const user = await linkedUser(ctx, link.userId, link.email)
  if (!isEmailProven(user)) await markVerified(ctx, user)
}

/**
 * The reset link: checks the new password first (a refused one does not burn the link), then
 * consumes the link, claims an unproven row (`claimAddress`), sets the password, ends every
 * session of the user (database rows and JWT sessions through the session version) and signs in
 * this browser only.
 */
async function reset(ctx: RequestContext, provider: PasswordConfig): Promise<Outcome> {
  const settings = provider.passwordAccount
  const adapter = ctx.config.adapter!
  const { email } = ctx.parsed.body // the link's address, the account's (checked once consumed)
  const password = await checkNewPassword(ctx.parsed.body.password, settings.policy, {
    email: typeof email === "string" ? email : undefined,
  })
  const callbackUrl = await resolveCallbackUrl(ctx)
  const link = await consume(ctx, provider, "reset")
  let user = await linkedUser(ctx, link.userId, link.email)
  if (!isEmailProven(user)) {
    // A proof from elsewhere meeting an unproven row (ownership rule 4): the claim removes
    // whatever was attached before it (the squatter's password, passkeys, linked accounts,
    // second factor, sessions) and marks the row proven; the user id stays.
    user = (await claimAddress(ctx, user, { proof: "reset-link", provider: provider.id })).user
  }
  await adapter.setPasswordHash!(user.id, await settings.hasher.hash(password))
  await endUserSessions(ctx.config, user.id)
  ctx.logger.debug("password reset", { provider: provider.id })
  return completeSignIn(ctx, provider, {
    user,
    account: { provider: provider.id, providerAccountId: user.id, type: "credentials" },
    callbackUrl,
  })
}

/**
 * The email-change link (mailed to the new address by `account/email-change`): the new
 * address is proven, so the account moves to it. Refused (as an invalid link) when another
 * account took the address meanwhile.
 */
async function confirmEmailChange(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const link = await consume(ctx, provider, "email-change")
  const adapter = ctx.config.adapter!
  const user = await adapter.getUser!(link.userId)
  const holder = await adapter.getUserByEmail!(link.email)
  if (!user || (holder && holder.id !== user.id)) {
    throw new Verification("The link is no longer valid", { details: { reason: "address-taken" } })
  }
  const updated = await adapter.updateUser!({
    id: user.id,
    email: link.email,
    emailVerified: new Date(),
  })
  await emitEvent(ctx.config.events, ctx.logger, "updateUser", { user: updated })
}

export { linkKeys, passwordUrl }
