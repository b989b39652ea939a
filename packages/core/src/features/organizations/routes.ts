/**
 * `{basePath}/organization[/<op>]`, for the signed-in user. Every POST is CSRF-checked
 * (double-submit, as the account API) and answers as the account API does: JSON `{ ok, … }`
 * for scripts, errors `{ error: "OrganizationError", code, message }` with a 4xx; a form post
 * without script a 303 to `callbackUrl` (`?error=<type>` on failure).
 *
 * - `GET  /organization`                 → `{ organizations, active }` (mine, with my role)
 * - `GET  /organization/detail?organizationId=` → members (and invitations for those who manage them)
 * - `GET  /organization/accept?invitationId=&token=` → the page a mailed invitation opens
 * - `POST /organization/<op>`            → the ops below
 */

import { currentSession, type SignedInSession } from "../../kernel/account/current-session.js"
import { countAccountChange } from "../../kernel/config/account-change-limit.js"
import { ensureCsrfToken } from "../../kernel/csrf/ensure.js"
import { requireCsrf } from "../../kernel/csrf/require.js"
import {
  AuthError,
  MethodNotAllowed,
  SessionRequired,
  UnknownAction,
} from "../../kernel/errors/errors.js"
import {
  accountErrorOutcome,
  destination,
  formNavigation,
} from "../../kernel/http/account-answer.js"
import { actionUrl, addCookies, pageUrl, type RequestContext } from "../../kernel/http/context.js"
import { json, NO_CACHE_HEADERS, type Outcome, redirect } from "../../kernel/http/outcome.js"
import { sessionContext } from "../../kernel/session/from-request.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
import { activeOrganization, setActiveOrganization } from "./active.js"
import { type OrgContext, orgContext } from "./context.js"
import { idOf, roleOf } from "./input.js"
import { acceptInvitation, cancelInvitation, invitationFor, invite } from "./invitations.js"
import { changeRole, leave, removeMember, transferOwnership } from "./members.js"
import {
  createOrganization,
  deleteOrganization,
  listMine,
  organizationDetail,
  updateOrganization,
} from "./organizations.js"
import { renderInvitationPage } from "./page.js"

interface OpInput {
  ctx: RequestContext
  oc: OrgContext
  session: SignedInSession
  body: Readonly<Record<string, unknown>>
}

/** What an op answers with: a JSON body's fields, and cookies (a re-issued JWT session). */
type OpResult = { data?: Record<string, unknown>; cookies?: readonly ResponseCookie[] }

const orgId = (body: OpInput["body"]) => idOf(body.organizationId, "organizationId")
const userId = (body: OpInput["body"]) => idOf(body.userId, "userId")

const OPS: Readonly<Record<string, (input: OpInput) => Promise<OpResult>>> = {
  async create({ ctx, oc, session, body }) {
    const organization = await createOrganization(oc, session.userId, {
      name: body.name,
      slug: body.slug,
    })
    // A new organization is the one the user acts in next.
    const cookies = await setActiveOrganization(oc, sessionContext(ctx), session, organization.id)
    return { data: { organization }, cookies }
  },
  async update({ oc, session, body }) {
    const organization = await updateOrganization(oc, session.userId, orgId(body), body)
    return { data: { organization } }
  },
  async delete({ oc, session, body }) {
    await deleteOrganization(oc, session.userId, orgId(body))
    return {}
  },
  async "set-active"({ ctx, oc, session, body }) {
    const chosen =
      body.organizationId === "" || body.organizationId === undefined ? null : orgId(body)
    return { cookies: await setActiveOrganization(oc, sessionContext(ctx), session, chosen) }
  },
  async invite({ ctx, oc, session, body }) {
    await countAccountChange(ctx, session.userId)
    const input = { email: body.email, role: body.role }
    const invitation = await invite(oc, session.userId, orgId(body), input, (id, token) => {
      const url = new URL(actionUrl(ctx, "organization", "accept"))
      url.searchParams.set("invitationId", id)
      url.searchParams.set("token", token)
      return url.href
    })
    return { data: { invitation } }
  },
  async "cancel-invitation"({ oc, session, body }) {
    await cancelInvitation(oc, session.userId, orgId(body), idOf(body.invitationId, "invitationId"))
    return {}
  },
  async accept({ ctx, oc, session, body }) {
    const invitationId = idOf(body.invitationId, "invitationId")
    const member = await acceptInvitation(oc, session, { invitationId, token: body.token })
    // The organization joined becomes the one the session acts in.
    const cookies = await setActiveOrganization(
      oc,
      sessionContext(ctx),
      session,
      member.organizationId,
    )
    return { data: { organizationId: member.organizationId, role: member.role }, cookies }
  },
  async "update-role"({ oc, session, body }) {
    await changeRole(oc, session.userId, orgId(body), userId(body), roleOf(body.role))
    return {}
  },
  async "remove-member"({ oc, session, body }) {
    await removeMember(oc, session.userId, orgId(body), userId(body))
    return {}
  },
  async leave({ oc, session, body }) {
    await leave(oc, session.userId, orgId(body))
    return {}
  },
  async transfer({ oc, session, body }) {
    await transferOwnership(oc, session.userId, orgId(body), userId(body))
    return {}
  },
}

export const ORGANIZATION_OPS = Object.keys(OPS)

async function signedIn(ctx: RequestContext): Promise<SignedInSession> {
  const current = await currentSession(sessionContext(ctx))
  addCookies(ctx, current.cookies)
  if (!current.signedIn) throw new SessionRequired("Sign in to continue")
  return current
}

export async function organizationPost(ctx: RequestContext): Promise<Outcome> {
  try {
    const op = ctx.providerId
    const run = op !== undefined && Object.hasOwn(OPS, op) ? OPS[op]! : undefined
    if (!run) {
      throw new UnknownAction(`Unknown organization change. Valid: ${ORGANIZATION_OPS.join(", ")}`)
    }
    await requireCsrf(ctx)
    const oc = orgContext(ctx.config)
    const session = await signedIn(ctx)
    const result = await run({ ctx, oc, session, body: ctx.parsed.body })
    addCookies(ctx, result.cookies ?? [])
    ctx.logger.debug("organization changed", { op })
    if (ctx.returnRedirect || formNavigation(ctx)) return redirect(await destination(ctx))
    return json({ ok: true, ...result.data }, 200, NO_CACHE_HEADERS)
  } catch (error) {
    return accountErrorOutcome(ctx, error)
  }
}

export async function organizationGet(ctx: RequestContext): Promise<Outcome> {
  try {
    switch (ctx.providerId) {
      case undefined: {
        const oc = orgContext(ctx.config)
        const session = await signedIn(ctx)
        const [organizations, active] = await Promise.all([
          listMine(oc, session.userId),
          activeOrganization(oc, session),
        ])
        return json({ organizations, active }, 200, NO_CACHE_HEADERS)
      }
      case "detail": {
        const oc = orgContext(ctx.config)
        const session = await signedIn(ctx)
        const detail = await organizationDetail(
          oc,
          session.userId,
          idOf(ctx.parsed.query.organizationId, "organizationId"),
        )
        return json(detail, 200, NO_CACHE_HEADERS)
      }
      case "accept":
        return await invitationPage(ctx)
      default:
        if (Object.hasOwn(OPS, ctx.providerId)) {
          throw new MethodNotAllowed(`organization/${ctx.providerId} accepts POST, not GET`, {
            details: { allow: "POST" },
          })
        }
        throw new UnknownAction("Unknown organization operation")
    }
  } catch (error) {
    return accountErrorOutcome(ctx, error)
  }
}

/**
 * The mailed link's page. Signed out: to the sign-in page, back here after (a new user signs
 * up and proves the address on the way). Signed in: a confirmation with a CSRF-checked POST;
 * opening the link spends nothing, so a mail scanner's GET leaves it usable.
 */
async function invitationPage(ctx: RequestContext): Promise<Outcome> {
  const oc = orgContext(ctx.config)
  const { query } = ctx.parsed
  const invitationId = idOf(query.invitationId, "invitationId")
  const token = typeof query.token === "string" ? query.token : ""
  const here = new URL(actionUrl(ctx, "organization", "accept"))
  here.searchParams.set("invitationId", invitationId)
  here.searchParams.set("token", token)
  const current = await currentSession(sessionContext(ctx))
  addCookies(ctx, current.cookies)
  if (!current.signedIn) return redirect(pageUrl(ctx, "signIn", { callbackUrl: here.href }))
  let problem: string | undefined
  let organizationName: string | undefined
  try {
    const invitation = await invitationFor(oc, current, invitationId)
    organizationName = (await oc.adapter.getOrganization(invitation.organizationId))?.name
  } catch (error) {
    if (!(error instanceof AuthError)) throw error
    problem = error.message
  }
  // The page carries the token in its URL: it loads nothing (no logo) so no Referer leaks it.
  const { logo: _logo, ...theme } = ctx.config.theme
  const page = renderInvitationPage({
    theme,
    csrfToken: await ensureCsrfToken(ctx),
    acceptUrl: actionUrl(ctx, "organization", "accept"),
    invitationId,
    token,
    callbackUrl: typeof query.callbackUrl === "string" ? query.callbackUrl : `${ctx.origin}/`,
    organizationName,
    problem,
  })
  return { kind: "html", status: page.status, html: page.html }
}
