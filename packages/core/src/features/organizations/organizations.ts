/** Creating, renaming, deleting and listing organizations, for a signed-in user. */
import type { AdapterInvitation, AdapterOrganization } from "../../kernel/types/adapters.js"
import { emit, type OrgContext } from "./context.js"
import { nameOf, slugOf } from "./input.js"
import { membership, permitted } from "./members.js"
import { notFound, refuse } from "./refusals.js"
import { allows } from "./roles.js"
import type { OrganizationView } from "./types.js"

export function view(org: AdapterOrganization): OrganizationView {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    createdAt: new Date(org.createdAt).toISOString(),
  }
}

const slugTaken = () => refuse("slug-taken", 409, "That slug is taken: choose another")

export async function createOrganization(
  oc: OrgContext,
  userId: string,
  input: { name: unknown; slug: unknown },
): Promise<OrganizationView> {
  const name = nameOf(input.name)
  const slug = slugOf(input.slug)
  const made = await oc.adapter.createOrganization(
    { id: crypto.randomUUID(), name, slug, createdAt: new Date() },
    userId,
    { maxPerUser: oc.settings.maxPerUser },
  )
  if (made === "slug-taken") throw slugTaken()
  if (made === "limit-reached") {
    throw refuse(
      "limit-reached",
      409,
      `You can create at most ${oc.settings.maxPerUser} organizations`,
    )
  }
  await emit(oc, { type: "organization-created", organizationId: made.id, actorId: userId })
  return view(made)
}

export async function updateOrganization(
  oc: OrgContext,
  userId: string,
  organizationId: string,
  input: { name?: unknown; slug?: unknown },
): Promise<OrganizationView> {
  await permitted(oc, organizationId, userId, { organization: ["update"] })
  const patch = {
    id: organizationId,
    ...(input.name === undefined || input.name === "" ? {} : { name: nameOf(input.name) }),
    ...(input.slug === undefined || input.slug === "" ? {} : { slug: slugOf(input.slug) }),
  }
  const updated = await oc.adapter.updateOrganization(patch)
  if (updated === "slug-taken") throw slugTaken()
  if (!updated) throw notFound()
  return view(updated)
}

export async function deleteOrganization(
  oc: OrgContext,
  userId: string | null,
  organizationId: string,
): Promise<void> {
  if (userId !== null) {
    await permitted(oc, organizationId, userId, { organization: ["delete"] })
  }
  if (!(await oc.adapter.deleteOrganization(organizationId))) throw notFound()
  await emit(oc, { type: "organization-deleted", organizationId, actorId: userId })
}

export async function listMine(
  oc: OrgContext,
  userId: string,
): Promise<(OrganizationView & { role: string })[]> {
  const found = await oc.adapter.listOrganizationsByUserId(userId)
  return found.map(({ organization, role }) => ({ ...view(organization), role }))
}

/** An invitation as its organization's admins see it (never its link). */
export function invitationView(invitation: AdapterInvitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    inviterId: invitation.inviterId,
    expiresAt: new Date(invitation.expiresAt).toISOString(),
    expired: new Date(invitation.expiresAt).getTime() <= Date.now(),
  }
}

/**
 * One organization as a member sees it: its members and roles; its pending invitations only
 * for those who may manage them (the invited addresses are not for every member).
 */
export async function organizationDetail(oc: OrgContext, userId: string, organizationId: string) {
  const me = await membership(oc, organizationId, userId)
  const org = await oc.adapter.getOrganization(organizationId)
  if (!org) throw notFound()
  const members = await oc.adapter.listMembers(organizationId)
  const seesInvitations = allows(oc.settings.roles, me.role, { invitation: ["create"] })
  return {
    organization: view(org),
    role: me.role,
    roles: Object.keys(oc.settings.roles),
    members: members.map((m) => ({
      userId: m.userId,
      role: m.role,
      name: m.user.name,
      email: m.user.email,
      createdAt: new Date(m.createdAt).toISOString(),
    })),
    invitations: seesInvitations
      ? (await oc.adapter.listInvitations(organizationId)).map(invitationView)
      : [],
  }
}
