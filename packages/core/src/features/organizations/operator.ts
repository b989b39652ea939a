/**
 * What the operator functions (`@latchkey/core/admin`) do with organizations, and what a user's
 * removal does: no organization is ever left without an owner. A sole owner's ownership passes
 * to the oldest admin, else the oldest member; an organization with nobody else in it goes with
 * its last member.
 */
import { ownerRole } from "../../kernel/types/adapters.js"
import { emit, type OrgContext } from "./context.js"
import { deleteOrganization } from "./organizations.js"
import { lastOwner } from "./refusals.js"

export interface RemovedFromOrganizations {
  /** Organizations the user left. */
  left: string[]
  /** Organizations whose ownership passed to another member: to whom. */
  ownershipPassed: { organizationId: string; to: string }[]
  /** Organizations deleted because the user was their only member. */
  deleted: string[]
}

/** Removes `userId` from every organization, passing ownership on where it was theirs alone. */
export async function removeFromAll(
  oc: OrgContext,
  userId: string,
): Promise<RemovedFromOrganizations> {
  const out: RemovedFromOrganizations = { left: [], ownershipPassed: [], deleted: [] }
  for (const { organization, role } of await oc.adapter.listOrganizationsByUserId(userId)) {
    const id = organization.id
    if (role === ownerRole) {
      const others = (await oc.adapter.listMembers(id)).filter((m) => m.userId !== userId)
      if (others.length === 0) {
        await deleteOrganization(oc, null, id)
        out.deleted.push(id)
        continue
      }
      if (!others.some((m) => m.role === ownerRole)) {
        const heir = others.find((m) => m.role === "admin") ?? others[0]!
        await oc.adapter.updateMemberRole(id, heir.userId, ownerRole)
        await emit(oc, {
          type: "role-changed",
          organizationId: id,
          actorId: null,
          userId: heir.userId,
          from: heir.role,
          to: ownerRole,
        })
        out.ownershipPassed.push({ organizationId: id, to: heir.userId })
      }
    }
    const change = await oc.adapter.removeMember(id, userId)
    // Another request demoted the heir meanwhile: refuse rather than leave no owner.
    if (change === "last-owner") throw lastOwner()
    if (change === "done") {
      await emit(oc, {
        type: "member-removed",
        organizationId: id,
        actorId: null,
        userId,
        reason: "user-removed",
      })
      out.left.push(id)
    }
  }
  return out
}

/** An organization's members, oldest first, for a support desk. */
export async function membersOf(oc: OrgContext, organizationId: string) {
  return oc.adapter.listMembers(organizationId)
}
