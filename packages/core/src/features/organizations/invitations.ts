/**
 * Invitations: a row (`AdapterInvitation`) and a mailed single-use link, a pending grant of
 * purpose `organization-invitation` bound to the inviter's account state
 * (docs/design/pending-grants.md). Accepting needs a signed-in user whose proven address is the
 * invited one, and an inviter who is still a member allowed to give that role: a link in
 * anybody else's hands, a removed or demoted inviter's invitation, one cancelled, replaced,
 * expired or already used, all admit nobody.
 */
import type { SignedInSession } from "../../kernel/account/current-session.js"
import { isEmailProven } from "../../kernel/account/email-ownership.js"
import { EventError } from "../../kernel/errors/errors.js"
import {
  type LinkGrant,
  linkGrantKeys,
  mintLinkGrant,
  redeemLinkGrant,
} from "../../kernel/grants/link.js"
import type { AdapterInvitation, AdapterMember } from "../../kernel/types/adapters.js"
import { emit, type OrgContext } from "./context.js"
import { emailOf, roleOf } from "./input.js"
import { assertMayGrant, permitted } from "./members.js"
import { invitationView } from "./organizations.js"
import { invitationInvalid, notFound, refuse } from "./refusals.js"
import { allows, mayGrant } from "./roles.js"

/** The link's grant: its row id names the invitation; it is bound to what the row says. */
function grantOf(invitation: AdapterInvitation): LinkGrant {
  return {
    purpose: "organization-invitation",
    identifier: `organization-invitation:${invitation.id}`,
    userId: invitation.inviterId,
    extra: [invitation.organizationId, invitation.email, invitation.role].join("\n"),
  }
}

const keys = (oc: OrgContext) => linkGrantKeys(oc.config, oc.config.secret)

export async function invite(
  oc: OrgContext,
  actorId: string,
  organizationId: string,
  input: { email: unknown; role: unknown },
  acceptUrl: (invitationId: string, token: string) => string,
) {
  const actor = await permitted(oc, organizationId, actorId, { invitation: ["create"] })
  const email = emailOf(input.email)
  const role = roleOf(input.role)
  assertMayGrant(oc, actor, role)
  const members = await oc.adapter.listMembers(organizationId)
  if (members.some((m) => m.user.email?.toLowerCase() === email)) {
    throw refuse("already-member", 409, "That address belongs to a member already")
  }
  const now = Date.now()
  const invitation = await oc.adapter.createInvitation({
    id: crypto.randomUUID(),
    organizationId,
    email,
    role,
    inviterId: actorId,
    expiresAt: new Date(now + oc.settings.invitationMaxAge * 1000),
    createdAt: new Date(now),
  })
  const { token, expires } = await mintLinkGrant(
    keys(oc),
    grantOf(invitation),
    oc.settings.invitationMaxAge,
  )
  await mail(oc, invitation, acceptUrl(invitation.id, token), expires)
  await emit(oc, {
    type: "invitation-sent",
    organizationId,
    actorId,
    invitationId: invitation.id,
    email,
    role,
  })
  return invitationView(invitation)
}

async function mail(oc: OrgContext, invitation: AdapterInvitation, url: string, expires: Date) {
  const [org, inviter] = await Promise.all([
    oc.adapter.getOrganization(invitation.organizationId),
    oc.adapter.getUser(invitation.inviterId),
  ])
  if (!org) throw notFound()
  try {
    await oc.settings.sendInvitation({
      to: invitation.email,
      url,
      organization: { id: org.id, name: org.name, slug: org.slug },
      inviter: {
        id: invitation.inviterId,
        name: inviter?.name ?? null,
        email: inviter?.email ?? null,
      },
      role: invitation.role,
      expires,
    })
  } catch (cause) {
    // An invitation nobody received must not stay pending under the address.
    await oc.adapter.deleteInvitation(invitation.organizationId, invitation.id)
    oc.config.logger.error(
      new EventError("organizations.sendInvitation threw", {
        cause,
        details: { organizationId: invitation.organizationId },
      }),
    )
    throw refuse("mail-failed", 502, "The invitation mail could not be sent: try again later")
  }
}

export async function cancelInvitation(
  oc: OrgContext,
  actorId: string,
  organizationId: string,
  invitationId: string,
): Promise<void> {
  await permitted(oc, organizationId, actorId, { invitation: ["cancel"] })
  if (!(await oc.adapter.deleteInvitation(organizationId, invitationId))) {
    throw notFound("invitation")
  }
  await emit(oc, { type: "invitation-cancelled", organizationId, actorId, invitationId })
}

/** Whether the inviter may still give the invitation's role in its organization. */
async function inviterStillMay(oc: OrgContext, invitation: AdapterInvitation): Promise<boolean> {
  const inviter = await oc.adapter.getMember(invitation.organizationId, invitation.inviterId)
  const { roles } = oc.settings
  return (
    inviter !== null &&
    allows(roles, inviter.role, { invitation: ["create"] }) &&
    mayGrant(roles, inviter.role, invitation.role)
  )
}

/**
 * The invitation a signed-in user may accept, checked without spending the link: it exists, is
 * unexpired, names the user's address, which the user proved.
 */
export async function invitationFor(
  oc: OrgContext,
  session: SignedInSession,
  invitationId: string,
): Promise<AdapterInvitation> {
  const invitation = await oc.adapter.getInvitation(invitationId)
  if (!invitation || new Date(invitation.expiresAt).getTime() <= Date.now()) {
    throw invitationInvalid()
  }
  const address = session.stored?.email?.toLowerCase()
  if (address !== invitation.email) {
    throw refuse(
      "invitation-other-address",
      403,
      "This invitation was sent to another address: sign in with the account of that address",
    )
  }
  if (!session.stored || !isEmailProven(session.stored)) {
    throw refuse(
      "address-unproven",
      403,
      "Confirm your email address first (follow the link mailed to you), then open the invitation again",
    )
  }
  return invitation
}

export async function acceptInvitation(
  oc: OrgContext,
  session: SignedInSession,
  input: { invitationId: string; token: unknown },
): Promise<AdapterMember> {
  const invitation = await invitationFor(oc, session, input.invitationId)
  if (!(await inviterStillMay(oc, invitation))) {
    await oc.adapter.deleteInvitation(invitation.organizationId, invitation.id)
    throw invitationInvalid()
  }
  try {
    await redeemLinkGrant(keys(oc), grantOf(invitation), input.token)
  } catch {
    throw invitationInvalid()
  }
  const member = await oc.adapter.acceptInvitation(invitation.id, session.userId, new Date())
  if (!member) throw invitationInvalid()
  await emit(oc, {
    type: "invitation-accepted",
    organizationId: invitation.organizationId,
    actorId: session.userId,
    invitationId: invitation.id,
    userId: session.userId,
    role: member.role,
  })
  await emit(oc, {
    type: "member-added",
    organizationId: invitation.organizationId,
    actorId: session.userId,
    userId: session.userId,
    role: member.role,
  })
  return member
}
