/**
 * `{basePath}/two-factor[/<op>]`: the second-factor step of sign-in and the settings of a
 * signed-in user.
 *
 * Sign-in step (the sealed pending cookie, no session yet):
 * - `GET  /two-factor`          the code page, or the enrollment page when the policy requires one
 * - `POST /two-factor/verify`   `{ code }` or `{ recoveryCode }` → the session, then `callbackUrl`
 * - `POST /two-factor/confirm`  `{ code }` during a required enrollment → the session and the
 *                               recovery codes (page, or JSON `{ recoveryCodes, url }`)
 *
 * Settings (signed in; JSON; every POST needs the CSRF token and a recent sign-in, and counts
 * against the user's limit of account changes, `kernel/config/account-change-limit.ts`):
 * - `GET  /two-factor/status`     → `TwoFactorStatus`
 * - `POST /two-factor/enroll`     → `{ uri, qrSvg, secret }`
 * - `POST /two-factor/confirm`    `{ code }` → `{ recoveryCodes }`
 * - `POST /two-factor/disable`    → `{ ok: true }`            (recent sign-in with a second factor)
 * - `POST /two-factor/regenerate` → `{ recoveryCodes }`       (recent sign-in with a second factor)
 */

import {
  currentSession,
  keptSession,
  type SignedInSession,
} from "../../kernel/account/current-session.js"
import { assertRecentAuth } from "../../kernel/account/recent-auth.js"
import { SECOND_FACTOR } from "../../kernel/account/step-up.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import { ensureCsrfToken } from "../../kernel/csrf/ensure.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import {
  AccessDenied,
  AuthError,
  InvalidRequest,
  MethodNotAllowed,
  SessionRequired,
  TwoFactorStateError,
  UnknownAction,
} from "../../kernel/errors/errors.js"
import { moveAccountState, type StateMove } from "../../kernel/grants/account-state.js"
import { actionUrl, addCookies, pageUrl, type RequestContext } from "../../kernel/http/context.js"
import { errorOutcome } from "../../kernel/http/error-outcome.js"
import { json, type Outcome, redirect } from "../../kernel/http/outcome.js"
import { publicError } from "../../kernel/http/public-error.js"
import { logCoded } from "../../kernel/logger/logger.js"
import { sessionContext } from "../../kernel/session/from-request.js"
import { issueSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import {
  renderRecoveryCodesPage,
  renderTwoFactorCodePage,
  renderTwoFactorEnrollPage,
} from "./pages.js"
import {
  clearPending,
  consumePending,
  type PendingSecondFactor,
  readPending,
  requirePending,
  resealPending,
} from "./pending.js"
import {
  beginEnrollment,
  confirmEnrollment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  twoFactorContext,
  twoFactorStatus,
  verifySecondFactor,
} from "./service.js"
import { withSecondFactor } from "./sign-in-step.js"
import { twoFactorPageUrl } from "./urls.js"

/** The second factor a disable or a regeneration must have been signed in with. */
const STEP_UP_FACTORS = SECOND_FACTOR

const STATUS: Readonly<Record<string, number>> = {
  SessionRequired: 401,
  ReauthenticationRequired: 403,
  MissingCSRF: 403,
  TwoFactorStateError: 409,
  InvalidTwoFactorCode: 400,
  TwoFactorSignInExpired: 400,
  RateLimited: 429,
  StoreError: 503,
  StoreTimeout: 503,
  StoreFull: 503,
  InvalidRequest: 400,
}

export async function twoFactorGet(ctx: RequestContext): Promise<Outcome> {
  switch (ctx.providerId) {
    case undefined:
      return codePage(ctx)
    case "status":
      return asJson(ctx, () => statusAction(ctx))
    case "verify":
    case "confirm":
    case "enroll":
    case "disable":
    case "regenerate":
      throw new MethodNotAllowed(`two-factor/${ctx.providerId} accepts POST, not GET`, {
        details: { allow: "POST" },
      })
    default:
      throw new UnknownAction("Unknown two-factor operation")
  }
}

export async function twoFactorPost(ctx: RequestContext): Promise<Outcome> {
  switch (ctx.providerId) {
    case "verify":
      return signInStep(ctx, verifyAction)
    case "confirm": {
      // During sign-in the pending cookie decides; signed in, the session does.
      const pending = await readPending(ctx)
      if (pending?.step === "enroll") return signInStep(ctx, () => confirmPendingEnrollment(ctx))
      return asJson(ctx, () => confirmAction(ctx))
    }
    case "enroll":
      return asJson(ctx, () => enrollAction(ctx))
    case "disable":
      return asJson(ctx, () => disableAction(ctx))
    case "regenerate":
      return asJson(ctx, () => regenerateAction(ctx))
    case undefined:
      throw new MethodNotAllowed("two-factor accepts GET, not POST", { details: { allow: "GET" } })
    default:
      throw new UnknownAction("Unknown two-factor operation")
  }
}

// ---- sign-in step ----------------------------------------------------------------------

async function codePage(ctx: RequestContext): Promise<Outcome> {
  const pending = await readPending(ctx)
  if (!pending) return redirect(pageUrl(ctx, "signIn", { error: "TwoFactorSignInExpired" }))
  if (ctx.config.pages.twoFactor) {
    return redirect(twoFactorPageUrl(ctx, { error: stringParam(ctx.parsed.query.error) }))
  }
  const csrfToken = await ensureCsrfToken(ctx)
  const error = stringParam(ctx.parsed.query.error)
  if (pending.step === "enroll") {
    const tctx = twoFactorContext(ctx.config)
    const user = await ctx.config.adapter!.getUser!(pending.uid)
    if (!user) return redirect(pageUrl(ctx, "signIn", { error: "TwoFactorSignInExpired" }))
    const enrollment = await beginEnrollment(tctx, user)
    const page = renderTwoFactorEnrollPage({
      theme: ctx.config.theme,
      signInUrl: pageUrl(ctx, "signIn"),
      confirmUrl: actionUrl(ctx, "two-factor", "confirm"),
      csrfToken,
      qrSvg: enrollment.qrSvg,
      secret: enrollment.secret,
      error,
    })
    return { kind: "html", status: page.status, html: page.html }
  }
  const page = renderTwoFactorCodePage({
    theme: ctx.config.theme,
    signInUrl: pageUrl(ctx, "signIn"),
    verifyUrl: actionUrl(ctx, "two-factor", "verify"),
    csrfToken,
    error,
  })
  return { kind: "html", status: page.status, html: page.html }
}

function stringParam(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z]{1,40}$/.test(value) ? value : undefined
}

/**
 * Runs a sign-in step; a refusal goes back to the code page while the pending state lasts, or
 * to the sign-in page once it is gone. Fetch callers asking for JSON get the typed error.
 */
async function signInStep(
  ctx: RequestContext,
  step: (ctx: RequestContext) => Promise<Outcome>,
): Promise<Outcome> {
  try {
    await requireCsrf(ctx)
    return await step(ctx)
  } catch (thrown) {
    if (!(thrown instanceof AuthError)) return errorOutcome(ctx, thrown)
    const reason = thrown.details?.reason
    const gone = reason === "pending-missing" || reason === "pending-replayed"
    if (asksForJson(ctx)) return jsonError(ctx, thrown)
    if (gone) {
      addCookies(ctx, clearPending(ctx))
      return errorOutcome(ctx, thrown)
    }
    logRefusal(ctx, thrown)
    const { type } = publicError(thrown)
    const retryAfter = thrown.details?.retryAfterSeconds
    return redirect(
      twoFactorPageUrl(ctx, {
        error: type,
        ...(typeof retryAfter === "number" ? { retryAfter: String(retryAfter) } : {}),
      }),
    )
  }
}

async function verifyAction(ctx: RequestContext): Promise<Outcome> {
  const pending = await requirePending(ctx)
  if (pending.step !== "verify") throw new TwoFactorStateError("Set up two-factor sign-in first")
  const tctx = twoFactorContext(ctx.config)
  const { code, recoveryCode } = codeFields(ctx)
  await spendPending(ctx, pending, () =>
    verifySecondFactor(tctx, pending.uid, { code, recoveryCode }),
  )
  return finishPending(ctx, pending)
}

async function confirmPendingEnrollment(ctx: RequestContext): Promise<Outcome> {
  const pending = await requirePending(ctx)
  const tctx = twoFactorContext(ctx.config)
  const { code } = codeFields(ctx)
  const codes = await spendPending(ctx, pending, () =>
    confirmEnrollment(tctx, pending.uid, code ?? ""),
  )
  // A second factor now guards the account: nothing granted before it may bypass it.
  await moveAccountState(ctx.config, pending.uid, "two-factor-on")
  const outcome = await finishPending(ctx, pending)
  const url = outcome.kind === "redirect" ? outcome.url : pending.cb
  if (ctx.returnRedirect || asksForJson(ctx)) return json({ recoveryCodes: codes, url })
  const page = renderRecoveryCodesPage({ theme: ctx.config.theme, codes, continueUrl: url })
  return { kind: "html", status: page.status, html: page.html }
}

/**
 * Consumes the pending cookie before the code is checked, so each cookie carries one attempt:
 * a refused code gets a fresh cookie (same end), and a copy of any earlier one is refused.
 */
async function spendPending<T>(
  ctx: RequestContext,
  pending: PendingSecondFactor,
  check: () => Promise<T>,
): Promise<T> {
  await consumePending(ctx, pending)
  try {
    return await check()
  } catch (error) {
    addCookies(ctx, await resealPending(ctx, pending))
    throw error
  }
}

/** Issues the session with both factors (the pending cookie is already spent). */
async function finishPending(ctx: RequestContext, pending: PendingSecondFactor): Promise<Outcome> {
  const user = await ctx.config.adapter!.getUser!(pending.uid)
  if (!user) throw new AccessDenied("The user of this sign-in no longer exists")
  addCookies(ctx, clearPending(ctx))
  const account = pending.acct
    ? ({ ...pending.acct, userId: user.id } as Parameters<typeof issueSignIn>[2]["account"])
    : null
  return issueSignIn(ctx, ctx.config.providerById.get(pending.pid), {
    user,
    account,
    isNewUser: pending.nu === true,
    amr: withSecondFactor(pending.amr),
    callbackUrl: pending.cb,
    ...(pending.tok ? { token: pending.tok } : {}),
  })
}

function codeFields(ctx: RequestContext): { code?: string; recoveryCode?: string } {
  const { code, recoveryCode } = ctx.parsed.body
  if (
    (code !== undefined && typeof code !== "string") ||
    (recoveryCode !== undefined && typeof recoveryCode !== "string")
  ) {
    throw new InvalidRequest("code and recoveryCode must be strings")
  }
  if ((code?.length ?? 0) > 32 || (recoveryCode?.length ?? 0) > 64) {
    throw new InvalidRequest("The code is too long")
  }
  return {
    ...(code !== undefined ? { code } : {}),
    ...(recoveryCode !== undefined ? { recoveryCode } : {}),
  }
}

// ---- settings of a signed-in user --------------------------------------------------------

async function signedIn(ctx: RequestContext) {
  const current = await currentSession(sessionContext(ctx))
  addCookies(ctx, current.cookies)
  if (!current.signedIn) throw new SessionRequired("Sign in to continue")
  return current
}

async function recentlySignedIn(ctx: RequestContext, factors?: readonly string[]) {
  const current = await signedIn(ctx)
  assertRecentAuth(current.facts, {
    maxAge: ctx.config.session.recentAuthMaxAge,
    ...(factors ? { factors } : {}),
  })
  await countAccountChange(ctx, current.userId)
  return current
}

async function statusAction(ctx: RequestContext): Promise<Outcome> {
  const current = await signedIn(ctx)
  const tctx = twoFactorContext(ctx.config)
  const user = (await ctx.config.adapter!.getUser!(current.userId)) ?? current.user
  return json(await twoFactorStatus(tctx, user))
}

async function enrollAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const current = await recentlySignedIn(ctx)
  const tctx = twoFactorContext(ctx.config)
  const user = (await ctx.config.adapter!.getUser!(current.userId)) ?? current.user
  return json(await beginEnrollment(tctx, user))
}

async function confirmAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const current = await recentlySignedIn(ctx)
  const tctx = twoFactorContext(ctx.config)
  const { code } = codeFields(ctx)
  const recoveryCodes = await confirmEnrollment(tctx, current.userId, code ?? "")
  await moveState(ctx, current, "two-factor-on")
  return json({ recoveryCodes })
}

/**
 * Turning the second factor on or off changes what it takes to control the account: the
 * account's state moves (other sessions end, pending grants die), this session is kept.
 */
async function moveState(ctx: RequestContext, current: SignedInSession, reason: StateMove) {
  const keep = keptSession(sessionContext(ctx), current)
  addCookies(ctx, await moveAccountState(ctx.config, current.userId, reason, keep))
}

async function disableAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const tctx = twoFactorContext(ctx.config)
  const current = await signedIn(ctx)
  const status = await tctx.adapter.getTwoFactor(current.userId)
  // An unconfirmed enrollment is dropped with a recent sign-in; a working factor needs it used.
  assertRecentAuth(current.facts, {
    maxAge: ctx.config.session.recentAuthMaxAge,
    ...(status?.enabledAt ? { factors: STEP_UP_FACTORS } : {}),
  })
  await countAccountChange(ctx, current.userId)
  await disableTwoFactor(tctx, current.userId)
  if (status?.enabledAt) await moveState(ctx, current, "two-factor-off")
  return json({ ok: true })
}

async function regenerateAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const current = await recentlySignedIn(ctx, STEP_UP_FACTORS)
  const tctx = twoFactorContext(ctx.config)
  return json({ recoveryCodes: await regenerateRecoveryCodes(tctx, current.userId) })
}

/** Settings answer JSON: the typed error with its status, never a redirect. */
async function asJson(ctx: RequestContext, run: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await run()
  } catch (thrown) {
    if (!(thrown instanceof AuthError)) return errorOutcome(ctx, thrown)
    return jsonError(ctx, thrown)
  }
}

function jsonError(ctx: RequestContext, error: AuthError): Outcome {
  logRefusal(ctx, error)
  const { type } = publicError(error)
  const status = type === "Configuration" ? 500 : (STATUS[type] ?? 400)
  const retryAfter = error.details?.retryAfterSeconds
  return json(
    { error: type, message: type === "Configuration" ? "Server error" : error.message },
    status,
    typeof retryAfter === "number" ? { "Retry-After": String(retryAfter) } : undefined,
  )
}

function logRefusal(ctx: RequestContext, error: AuthError): void {
  if (error.warning !== undefined) {
    logCoded(ctx.logger, error.warning, `${error.type}: ${error.message} (two-factor)`)
  } else if (error.clientSafe || error.type === "RateLimited" || error.type === "MissingCSRF") {
    ctx.logger.debug(`two-factor refused: ${error.type}`, { reason: error.details?.reason })
  } else {
    ctx.logger.error(error)
  }
}

function asksForJson(ctx: RequestContext): boolean {
  if (ctx.returnRedirect) return false
  const accept = ctx.request.headers.get("accept") ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}
