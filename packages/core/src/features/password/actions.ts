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

import { claimAddress } from "../../kernel/account/claim.js"
import { currentSessionOf, keptSession } from "../../kernel/account/current-session.js"
import { isEmailProven, markVerified } from "../../kernel/account/email-ownership.js"
import { constantTimeEqual } from "../../kernel/crypto/constant-time.js"
import { ensureCsrfToken } from "../../kernel/csrf/ensure.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import {
  AuthError,
  CallbackRouteError,
  InvalidProvider,
  InvalidRequest,
  MethodNotAllowed,
  UnknownAction,
  Verification,
} from "../../kernel/errors/errors.js"
import { emitEvent } from "../../kernel/events/emit.js"
import { moveAccountState } from "../../kernel/grants/account-state.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import {
  actionUrl,
  addCookies,
  defer,
  pageUrl,
  type RequestContext,
} from "../../kernel/http/context.js"
import { errorOutcome } from "../../kernel/http/error-outcome.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "../../kernel/http/outcome.js"
import { publicError } from "../../kernel/http/public-error.js"
import { normalizeIdentifier } from "../../kernel/mail/address.js"
import type { PageResponse } from "../../kernel/pages/layout.js"
import { sessionContext } from "../../kernel/session/from-request.js"
import { completeSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import { canSendMail, findPasswordProvider, type PasswordConfig } from "./config.js"
import { consumeLink, type LinkPurpose } from "./links.js"
import { enforceMailRequestLimit, sendLinkMail } from "./mail.js"
import {
  renderCheckMailPage,
  renderConfirmAddressPage,
  renderForgotPage,
  renderResetPage,
  renderSignUpPage,
} from "./pages.js"
import { checkNewPassword } from "./policy.js"
import { markSignUpBrowser, signUpBrowserOf } from "./sign-up-browser.js"
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
          browser: op === "verify" ? boundedString(query.browser, 64) : undefined,
          csrfToken: await ensureCsrfToken(ctx),
          theme,
        }
        if (!props.token || !props.uid || !props.email) {
          throw new Verification("The link is incomplete", { details: { reason: "malformed" } })
        }
        const elsewhere = op === "verify" && !(await ownConfirmation(ctx, props.uid, props.browser))
        const page =
          op === "reset" || elsewhere
            ? renderResetPage({
                ...props,
                token: props.token,
                uid: props.uid,
                email: props.email,
                minLength,
                kind: op === "verify" ? "verify" : "reset",
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
        // With a password: the page a browser that did not sign up gets (a claim, a new
        // password). Without one: the one-click confirmation, for the browser that signed up.
        if (ctx.parsed.body.password !== undefined) {
          return signedInAnswer(ctx, await setPasswordByLink(ctx, provider, "verify"))
        }
        await verifyOwnAddress(ctx, provider)
        return done(ctx, pageUrl(ctx, "signIn"))
      case "email-change":
        await confirmEmailChange(ctx, provider)
        return done(ctx, await resolveCallbackUrl(ctx))
      case "reset":
        return signedInAnswer(ctx, await setPasswordByLink(ctx, provider, "reset"))
    }
  } catch (error) {
    return passwordErrorOutcome(ctx, op, error)
  }
}

/** A sign-in's outcome; a fetch client gets JSON with where to go (the cookie is set either way). */
function signedInAnswer(ctx: RequestContext, signedIn: Outcome): Outcome {
  if (signedIn.kind !== "redirect" || ctx.returnRedirect || formNavigation(ctx)) return signedIn
  return json({ ok: true, url: signedIn.url }, 200, NO_CACHE_HEADERS)
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
  // A wrong password is a failed attempt a security log keeps; any other refusal (a weak new
  // password, an expired link, no session) is a user event.
  const detail = `${error.type}: ${error.message} (password/${op ?? "?"})`
  if (status >= 500) ctx.logger.error(error)
  else if (error.type === "CredentialsSignin") ctx.logger.warn("credentials-refused", detail)
  else ctx.logger.event("password-refused", detail)
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
    if ((op === "reset" || op === "verify") && type === "PasswordRejected") {
      // The link was not consumed (the policy is checked first): back to its form.
      const { token, uid, email, browser } = ctx.parsed.body
      if (typeof token === "string" && typeof uid === "string" && typeof email === "string") {
        return redirect(
          passwordPageUrl(ctx, op, {
            token,
            uid,
            email,
            ...(typeof browser === "string" ? { browser } : {}),
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
 * Sign-up. The request does what every address costs alike (the policy, the limit, this
 * browser's nonce, one password hash) and answers; whether the address has an account decides
 * the rest, after the answer (`http/deferred.ts`): a new address gets an unproven user with the
 * password and the verification link, a held one a notice with a reset link, nothing created.
 */
async function signUp(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const settings = provider.passwordAccount
  const { body } = ctx.parsed
  const email = normalizeIdentifier(body.email)
  const password = await checkNewPassword(body.password, settings.policy, { email })
  await enforceMailRequestLimit(ctx, provider, "sign-up")
  // This browser, whatever the address: the verification link opened here is the one-click
  // confirmation; opened elsewhere it asks for a password of its own.
  const { cookie, browser } = await markSignUpBrowser(ctx, settings.verificationMaxAge)
  addCookies(ctx, [cookie])
  const hash = await settings.hasher.hash(password)
  const name = typeof body.name === "string" && body.name.length <= 256 ? body.name.trim() : ""
  defer(ctx, () => createOrNotify(ctx, provider, { email, hash, name, browser }))
}

async function createOrNotify(
  ctx: RequestContext,
  provider: PasswordConfig,
  signUp: { email: string; hash: string; name: string; browser: string },
): Promise<void> {
  const settings = provider.passwordAccount
  const adapter = ctx.config.adapter!
  const { email, browser } = signUp
  const existing = await adapter.getUserByEmail!(email)
  if (existing) {
    ctx.logger.debug("password sign-up for an address that has an account")
    if (!canSendMail(settings)) return
    const reset = { purpose: "reset", userId: existing.id, email } as const
    await sendLinkMail(ctx, provider, reset, "account-exists")
    return
  }
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: null,
    ...(signUp.name ? { name: signUp.name } : {}),
  })
  await adapter.setPasswordHash!(user.id, signUp.hash)
  await emitEvent(ctx.config.events, ctx.logger, "createUser", { user })
  if (canSendMail(settings)) {
    await sendLinkMail(ctx, provider, { purpose: "verify", userId: user.id, email, browser })
  }
}

/**
 * "Send the link again": only an unproven account with a password gets one, after the answer;
 * the answer is the same for every address.
 */
async function resend(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const email = normalizeIdentifier(ctx.parsed.body.email)
  await enforceMailRequestLimit(ctx, provider, "verification mail")
  // Bound to this browser if it signed up here; else every browser confirms with a password.
  const browser = await signUpBrowserOf(ctx)
  defer(ctx, async () => {
    const adapter = ctx.config.adapter!
    const user = await adapter.getUserByEmail!(email)
    const due =
      user !== null &&
      !isEmailProven(user) &&
      (await adapter.getPasswordHash!(user.id)) !== null &&
      canSendMail(provider.passwordAccount)
    if (due) {
      await sendLinkMail(ctx, provider, { purpose: "verify", userId: user.id, email, browser })
    }
  })
}

/** "Forgot password": a reset link to an address that has an account, after the answer. */
async function forgot(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const email = normalizeIdentifier(ctx.parsed.body.email)
  await enforceMailRequestLimit(ctx, provider, "password reset")
  defer(ctx, async () => {
    const user = await ctx.config.adapter!.getUserByEmail!(email)
    if (!user || !canSendMail(provider.passwordAccount)) return
    await sendLinkMail(ctx, provider, { purpose: "reset", userId: user.id, email })
  })
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
    { purpose, userId: body.uid, email: body.email, browser: body.browser },
    body.token,
  )
}

const sameText = (a: string, b: string) => {
  const encoder = new TextEncoder()
  return constantTimeEqual(encoder.encode(a), encoder.encode(b))
}

/**
 * Whether opening a verification link here is the row confirming its own address (ownership
 * rule 3), and the `browser` to recompute the link's MAC with: in the browser that signed up
 * (the nonce the link names; a post that names none, the one this browser has), or in a browser
 * signed in as the link's user. `undefined`: a proof from elsewhere.
 */
async function ownConfirmation(
  ctx: RequestContext,
  uid: unknown,
  named: unknown,
): Promise<{ browser: string | undefined } | undefined> {
  const mine = await signUpBrowserOf(ctx)
  if (mine !== undefined && typeof named === "string" && sameText(mine, named)) {
    return { browser: mine }
  }
  const current = await currentSessionOf(ctx)
  addCookies(ctx, current.cookies)
  if (current.signedIn && current.userId === uid) {
    return { browser: typeof named === "string" ? named : undefined }
  }
  if (mine !== undefined && named === undefined) return { browser: mine }
  return undefined
}

/**
 * The sign-up verification link confirmed by the row itself (`ownConfirmation`): marked proven,
 * nothing removed, no session (the person signs in with the password they chose). Anywhere
 * else the person must choose a password (the link proves the mailbox, not the password
 * somebody chose at sign-up): `InvalidRequest` saying so.
 */
async function verifyOwnAddress(ctx: RequestContext, provider: PasswordConfig): Promise<void> {
  const { body } = ctx.parsed
  const own = await ownConfirmation(ctx, body.uid, body.browser)
  if (!own) {
    throw new InvalidRequest(
      "This link was opened in another browser than the one that signed up: choose a password (the password field) to confirm the address",
      { details: { reason: "password-required" } },
    )
  }
  const link = await consumeLink(
    linkKeys(ctx, provider),
    { purpose: "verify", userId: body.uid, email: body.email, browser: own.browser },
    body.token,
  )
  const user = await linkedUser(ctx, link.userId, link.email)
  if (!isEmailProven(user)) await markVerified(ctx, user)
}

/**
 * A link that proves the mailbox and sets the password the person types: a reset link, or a
 * sign-up verification link opened in another browser than the one that signed up (whoever
 * chose the sign-up's password is not shown to be the mailbox's owner). Checks the new password
 * first (a refused one does not burn the link), consumes the link, claims an unproven row
 * (`claimAddress`: whatever was attached before the proof goes), sets the password, moves the
 * account's state (every session ends, every other link dies) and signs in this browser only.
 */
async function setPasswordByLink(
  ctx: RequestContext,
  provider: PasswordConfig,
  purpose: "reset" | "verify",
): Promise<Outcome> {
  const settings = provider.passwordAccount
  const adapter = ctx.config.adapter!
  const { email } = ctx.parsed.body // the link's address, the account's (checked once consumed)
  const password = await checkNewPassword(ctx.parsed.body.password, settings.policy, {
    email: typeof email === "string" ? email : undefined,
  })
  const callbackUrl = await resolveCallbackUrl(ctx)
  const link = await consume(ctx, provider, purpose)
  let user = await linkedUser(ctx, link.userId, link.email)
  if (!isEmailProven(user)) {
    // A proof from elsewhere meeting an unproven row (ownership rule 4): the claim removes
    // whatever was attached before it (the squatter's password, passkeys, linked accounts,
    // second factor, sessions) and marks the row proven; the user id stays.
    const proof = purpose === "reset" ? "reset-link" : "verification-link"
    user = (await claimAddress(ctx, user, { proof, provider: provider.id })).user
  }
  await adapter.setPasswordHash!(user.id, await settings.hasher.hash(password))
  await moveAccountState(ctx.config, user.id, "reset")
  ctx.logger.debug("password set by a link", { provider: provider.id, purpose })
  return completeSignIn(ctx, provider, {
    user,
    account: { provider: provider.id, providerAccountId: user.id, type: "credentials" },
    callbackUrl,
  })
}

/**
 * The email-change link (mailed to the new address by `account/email-change`): the new
 * address is proven, so the account moves to it. The link is bound to the account's state when
 * it was asked for, so a claim, a reset or a password change since voids it; it is refused (as
 * an invalid link) when another account took the address meanwhile. The move changes who
 * controls the account, so the state moves: other sessions end (this browser's, when it is
 * signed in to the account, is kept).
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
  const current = await currentSessionOf(ctx)
  addCookies(ctx, current.cookies)
  const mine = current.signedIn && current.userId === user.id
  const keep = mine ? keptSession(sessionContext(ctx), { ...current, stored: updated }) : undefined
  addCookies(ctx, await moveAccountState(ctx.config, user.id, "email-change", keep))
}

export { linkKeys, passwordUrl }
