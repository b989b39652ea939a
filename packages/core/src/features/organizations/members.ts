/**
 * Membership and permission, checked in the organization each operation names: a caller who
 * is not a member is told the organization does not exist (isolation), a member whose role
 * lacks the permission is refused, and nobody gives or takes a role above their own.
 */
import { type AdapterMember, type MemberChange, ownerRole } from "../../kernel/types/adapters.js"
import { emit, type OrgContext } from "./context.js"
import { forbidden, lastOwner, notFound, roleAboveYours } from "./refusals.js"
import { allows, mayGrant } from "./roles.js"
import type { PermissionStatements } from "./types.js"

/** The caller's membership of `organizationId`, or `not-found`. */
export async function membership(
  oc: OrgContext,
  organizationId: string,
  userId: string,
): Promise<AdapterMember> {
  const member = await oc.adapter.getMember(organizationId, userId)
  if (!member) throw notFound()
  return member
}

/** The caller's membership, with a role that holds `wanted`. */
export async function permitted(
  oc: OrgContext,
  organizationId: string,
  userId: string,
  wanted: PermissionStatements,
): Promise<AdapterMember> {
  const member = await membership(oc, organizationId, userId)
  if (!allows(oc.settings.roles, member.role, wanted)) throw forbidden()
  return member
}

/** Refuses giving `role` (or acting on a member holding it) above the caller's own. */
export function assertMayGrant(oc: OrgContext, granter: AdapterMember, role: string): void {
  if (!Object.hasOwn(oc.settings.roles, role)) throw notFound("role")
  if (!mayGrant(oc.settings.roles, granter.role, role)) throw roleAboveYours()
}

function settle(change: MemberChange): void {
  if (change === "not-found") throw notFound("member")
  if (change === "last-owner") throw lastOwner()
}

export async function changeRole(
  oc: OrgContext,
  actorId: string,
  organizationId: string,
  userId: string,
  role: string,
): Promise<void> {
  const actor = await permitted(oc, organizationId, actorId, { member: ["update-role"] })
  const target = await oc.adapter.getMember(organizationId, userId)
  if (!target) throw notFound("member")
  // Both the role given and the role taken away must be within the actor's own.
  assertMayGrant(oc, actor, role)
  assertMayGrant(oc, actor, target.role)
  if (target.role === role) return
  settle(await oc.adapter.updateMemberRole(organizationId, userId, role))
  await emit(oc, {
    type: "role-changed",
    organizationId,
    actorId,
    userId,
    from: target.role,
    to: role,
  })
}

export async function removeMember(
  oc: OrgContext,
  actorId: string,
  organizationId: string,
  userId: string,
): Promise<void> {
  if (userId === actorId) return leave(oc, actorId, organizationId)
  const actor = await permitted(oc, organizationId, actorId, { member: ["remove"] })
  const target = await oc.adapter.getMember(organizationId, userId)
  if (!target) throw notFound("member")
  assertMayGrant(oc, actor, target.role)
  settle(await oc.adapter.removeMember(organizationId, userId))
  await emit(oc, { type: "member-removed", organizationId, actorId, userId, reason: "removed" })
}

export async function leave(oc: OrgContext, userId: string, organizationId: string): Promise<void> {
  await membership(oc, organizationId, userId)
  settle(await oc.adapter.removeMember(organizationId, userId))
  await emit(oc, {
    type: "member-removed",
    organizationId,
    actorId: userId,
    userId,
    reason: "left",
  })
}

/**
 * Makes `toUserId` (a member) an owner, then the owner handing over (`actorId`) an admin — or,
 * for the operator (`actorId` `null`), every other owner. Promotion first, so the organization
 * has an owner at every step.
 */
export async function transferOwnership(
  oc: OrgContext,
  actorId: string | null,
  organizationId: string,
  toUserId: string,
): Promise<void> {
  if (actorId !== null) {
    await permitted(oc, organizationId, actorId, { organization: ["transfer"] })
  }
  const target = await oc.adapter.getMember(organizationId, toUserId)
  if (!target) throw notFound("member")
  if (target.role !== ownerRole) {
    settle(await oc.adapter.updateMemberRole(organizationId, toUserId, ownerRole))
    await emit(oc, {
      type: "role-changed",
      organizationId,
      actorId,
      userId: toUserId,
      from: target.role,
      to: ownerRole,
    })
  }
  for (const member of await oc.adapter.listMembers(organizationId)) {
    if (member.role !== ownerRole || member.userId === toUserId) continue
    if (actorId !== null && member.userId !== actorId) continue
    settle(await oc.adapter.updateMemberRole(organizationId, member.userId, "admin"))
    await emit(oc, {
      type: "role-changed",
      organizationId,
      actorId,
      userId: member.userId,
      from: ownerRole,
      to: "admin",
    })
  }
}
