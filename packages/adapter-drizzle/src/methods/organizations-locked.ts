/**
 * The organizations steps on PostgreSQL and MySQL: each in one READ COMMITTED transaction that
 * first locks the row its rule is about, so steps of one organization (or one creator) run one
 * after the other and each reads what the ones before it committed.
 *
 * - creating locks the creator's user row, counts their organizations, then inserts; a taken
 *   slug fails on the unique key (and the transaction rolls back);
 * - changing or removing a member locks the organization's row, then counts its owners;
 * - accepting locks the invitation's row: of concurrent accepts, the first deletes it and the
 *   others find nothing; the membership is an insert that keeps an existing one.
 */
import { type AdapterOrganization, type MemberChange, ownerRole } from "@latchkey/core/adapters"
import { and, count, eq, gt } from "drizzle-orm"
import type { Locks } from "../dialect/dialect.js"
import type { QueryDb } from "../query.js"
import { toMember, toOrganization } from "../records.js"
import type { OrganizationSteps, StepContext } from "./organization-steps.js"

type OrganizationPatch = Pick<AdapterOrganization, "id"> &
  Partial<Pick<AdapterOrganization, "name" | "slug">>

export function lockedSteps(
  { ctx, t, fields }: StepContext,
  { transaction, lock, isUniqueViolation }: Locks,
): OrganizationSteps {
  const { dialect, refuse } = ctx
  const { users: u, organizations: o, members: m, invitations: i } = t

  const lockOrganization = async (tx: QueryDb, id: string) =>
    (await lock(tx.select({ id: o.id }).from(o).where(eq(o.id, id)))).length > 0

  const getOrganization = async (db: QueryDb, id: string) => {
    const [row] = await db.select(fields.organization).from(o).where(eq(o.id, id))
    return row ? toOrganization(row) : null
  }

  /** `role` for the member, or (`null`) no membership, unless that leaves no owner. */
  const memberChange = (organizationId: string, userId: string, role: string | null) =>
    transaction<MemberChange>(async (tx) => {
      if (!(await lockOrganization(tx, organizationId))) return "not-found"
      const key = and(eq(m.organizationId, organizationId), eq(m.userId, userId))
      const [member] = await tx.select({ role: m.role }).from(m).where(key)
      if (!member) return "not-found"
      if (member.role === ownerRole && role !== ownerRole) {
        const owners = and(eq(m.organizationId, organizationId), eq(m.role, ownerRole))
        const [counted] = await tx.select({ n: count() }).from(m).where(owners)
        if (Number(counted?.n ?? 0) <= 1) return "last-owner"
      }
      await (role === null ? tx.delete(m).where(key) : tx.update(m).set({ role }).where(key))
      return "done"
    })

  return {
    async createOrganization(org, ownerId, bound) {
      const stored: AdapterOrganization = {
        id: org.id || crypto.randomUUID(),
        name: org.name,
        slug: org.slug.toLowerCase(),
        createdAt: org.createdAt,
      }
      try {
        return await transaction(async (tx) => {
          const owner = await lock(tx.select({ id: u.id }).from(u).where(eq(u.id, ownerId)))
          if (owner.length === 0) throw refuse("createOrganization", "no such user")
          const [created] = await tx.select({ n: count() }).from(o).where(eq(o.creatorId, ownerId))
          if (Number(created?.n ?? 0) >= bound.maxPerUser) return "limit-reached" as const
          await tx.insert(o).values({ ...stored, creatorId: ownerId })
          await tx.insert(m).values({
            organizationId: stored.id,
            userId: ownerId,
            role: ownerRole,
            createdAt: stored.createdAt,
          })
          return stored
        })
      } catch (error) {
        if (isUniqueViolation(error) && (await slugTaken(dialect.db, stored.slug))) {
          return "slug-taken"
        }
        throw error
      }
    },

    async updateOrganization(patch: OrganizationPatch) {
      const set = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(patch.slug !== undefined ? { slug: patch.slug.toLowerCase() } : {}),
      }
      if (Object.keys(set).length === 0) return await getOrganization(dialect.db, patch.id)
      try {
        const where = eq(o.id, patch.id)
        const [row] = await dialect.updateReturning(o, set, where, fields.organization)
        return row ? toOrganization(row) : null
      } catch (error) {
        // The slug is the table's only unique key an update can hit.
        if (isUniqueViolation(error)) return "slug-taken"
        throw error
      }
    },

    // Members and invitations go in the same transaction, whether or not keys cascade.
    deleteOrganization: (id) =>
      transaction(async (tx) => {
        if (!(await lockOrganization(tx, id))) return false
        await tx.delete(i).where(eq(i.organizationId, id))
        await tx.delete(m).where(eq(m.organizationId, id))
        await tx.delete(o).where(eq(o.id, id))
        return true
      }),

    updateMemberRole: (organizationId, userId, role) => memberChange(organizationId, userId, role),

    removeMember: (organizationId, userId) => memberChange(organizationId, userId, null),

    acceptInvitation: (id, userId, now) =>
      transaction(async (tx) => {
        const unexpired = and(eq(i.id, id), gt(i.expiresAt, now))
        const [invitation] = await lock(
          tx.select({ organizationId: i.organizationId, role: i.role }).from(i).where(unexpired),
        )
        if (!invitation) return null
        const organizationId = String(invitation.organizationId)
        await tx.delete(i).where(eq(i.id, id))
        // An existing membership is kept: the conflict "updates" its role to itself.
        await dialect.upsert(
          tx,
          m,
          { organizationId, userId, role: invitation.role, createdAt: now },
          [m.organizationId, m.userId],
          { role: m.role },
        )
        const key = and(eq(m.organizationId, organizationId), eq(m.userId, userId))
        const [member] = await tx.select(fields.member).from(m).where(key)
        return member ? toMember(member) : null
      }),
  }

  async function slugTaken(db: QueryDb, slug: string) {
    return (await db.select({ id: o.id }).from(o).where(eq(o.slug, slug))).length > 0
  }
}
