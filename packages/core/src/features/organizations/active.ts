/**
 * The active organization: the `org` claim of a JWT session, the `activeOrganizationId` of a
 * database session row. Set only to an organization the user belongs to, and re-checked on
 * every use (`getMember`), so a removal, a role change or a deletion holds on the member's next
 * request whatever the session strategy: what the session carries is a choice, never a right.
 */
import type { SignedInSession } from "../../kernel/account/current-session.js"
import type { SessionContext } from "../../kernel/session/context.js"
import { issueJwtSession } from "../../kernel/session/issue.js"
import type { JWT } from "../../kernel/token/jwt.js"
import type { AdapterMember } from "../../kernel/types/adapters.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
import type { OrgContext } from "./context.js"
import { membership } from "./members.js"
import { view } from "./organizations.js"
import type { ActiveOrganization } from "./types.js"

/** The JWT claim that names the active organization. */
export const ORG_CLAIM = "org"

/** The organization the session names, whether or not the user still belongs to it. */
export function chosenOrganization(session: SignedInSession): string | null {
  const chosen = session.token ? session.token[ORG_CLAIM] : session.row?.activeOrganizationId
  return typeof chosen === "string" && chosen !== "" ? chosen : null
}

/** The user's membership of the organization the session names, read now; `null`: none. */
export async function activeMembership(
  oc: OrgContext,
  session: SignedInSession,
): Promise<AdapterMember | null> {
  const chosen = chosenOrganization(session)
  return chosen === null ? null : oc.adapter.getMember(chosen, session.userId)
}

export async function activeOrganization(
  oc: OrgContext,
  session: SignedInSession,
): Promise<ActiveOrganization | null> {
  const member = await activeMembership(oc, session)
  if (!member) return null
  const org = await oc.adapter.getOrganization(member.organizationId)
  return org ? { organization: view(org), userId: member.userId, role: member.role } : null
}

/**
 * Makes `organizationId` (one the user belongs to; `null` clears it) the session's active
 * organization. Returns the cookies of the re-issued JWT session (none for a database one).
 */
export async function setActiveOrganization(
  oc: OrgContext,
  sctx: SessionContext,
  session: SignedInSession,
  organizationId: string | null,
): Promise<ResponseCookie[]> {
  if (organizationId !== null) await membership(oc, organizationId, session.userId)
  if (session.token) {
    const { iat: _iat, exp: _exp, jti: _jti, [ORG_CLAIM]: _org, ...claims } = session.token
    const next: JWT = organizationId === null ? claims : { ...claims, [ORG_CLAIM]: organizationId }
    return issueJwtSession(sctx, next)
  }
  const sessionToken = sctx.requestCookies[sctx.cookies.sessionToken.name]
  if (sessionToken && oc.adapter.updateSession) {
    await oc.adapter.updateSession({ sessionToken, activeOrganizationId: organizationId })
  }
  return []
}

/** A rebuilt JWT keeps the active organization (an app's `jwt` callback may drop claims). */
export function keepOrgClaim(before: JWT, after: JWT): JWT {
  const org = before[ORG_CLAIM]
  return typeof org === "string" && after[ORG_CLAIM] === undefined
    ? { ...after, [ORG_CLAIM]: org }
    : after
}
