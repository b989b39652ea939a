/**
 * `GET {basePath}/account` and `POST {basePath}/account/<op>`: the signed-in user's passkeys,
 * sessions and linked accounts, and the changes to them. Every change is CSRF-checked
 * (double-submit, as `/signout`), needs a recent sign-in (with the second factor when
 * two-factor is on: `step-up.ts`) and counts against the user's limit (`change-limit.ts`).
 *
 * Answers as every change of the signed-in user's does (`kernel/http/account-answer.ts`).
 */

import { warnMissingOnce } from "../../kernel/account/adapter-support.js"
import { currentSession, keptSession } from "../../kernel/account/current-session.js"
import { assertStepUp } from "../../kernel/account/step-up.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import { SessionRequired, UnknownAction } from "../../kernel/errors/errors.js"
import {
  accountErrorOutcome,
  destination,
  formNavigation,
} from "../../kernel/http/account-answer.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "../../kernel/http/outcome.js"
import { sessionContext } from "../../kernel/session/from-request.js"
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
