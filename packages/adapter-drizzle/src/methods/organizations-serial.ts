/**
 * The organizations steps on SQLite. Its writes are serial (one writer at a time), so a rule
 * holds when it is a condition of the statement that writes: each step is a few statements run
 * as one (a batch on D1 and libSQL, which have no interactive transactions; a transaction on
 * better-sqlite3 and Bun), none of which depends on an answer read in between.
 *
 * - creating inserts `INSERT … SELECT … WHERE <the creator's count is under the limit>`, with
 *   `ON CONFLICT (slug) DO NOTHING`; a read first in the same step tells which rule refused;
 * - changing or removing a member is one write `WHERE <not the owner, or not the last one>`;
 * - accepting inserts the membership from the unexpired invitation, keeps an existing one, and
 *   deletes the invitation, in that order in one step.
 */
import { type AdapterOrganization, type MemberChange, ownerRole } from "@latchkey/core/adapters"
import { and, type Column, eq, gt, ne, notExists, or, type SQL, sql } from "drizzle-orm"
import type { SerialWrites } from "../dialect/dialect.js"
import { toMember, toOrganization } from "../records.js"
import type { OrganizationSteps, StepContext } from "./organization-steps.js"

type OrganizationPatch = Pick<AdapterOrganization, "id"> &
  Partial<Pick<AdapterOrganization, "name" | "slug">>

/** `value` as a bound parameter of `column`'s type (a date as the column stores dates). */
const bound = (value: unknown, column: Column): SQL => sql`${sql.param(value, column)}`

export function serialSteps(
  { ctx, t, fields }: StepContext,
  { rows: step }: SerialWrites,
): OrganizationSteps {
  const { dialect, refuse } = ctx
  const { users: u, organizations: o, members: m, invitations: i } = t

  /**
   * `role` for the member, or (`null`) no membership, in one write whose condition keeps an
   * owner; the member read after it tells a refusal from a member that is not there.
   */
  const memberChange = async (
    organizationId: string,
    userId: string,
    role: string | null,
  ): Promise<MemberChange> => {
    const key = and(eq(m.organizationId, organizationId), eq(m.userId, userId))!
    const owners = sql`(select count(*) from ${m} where ${m.organizationId} = ${organizationId}
      and ${m.role} = ${ownerRole})`
    // Making someone an owner never leaves the organization without one.
    const allowed =
      role === ownerRole ? key : and(key, or(ne(m.role, ownerRole), sql`${owners} > 1`))
    const [written, still] = await step((db) => [
      role === null
        ? db.delete(m).where(allowed).returning({ role: m.role })
        : db.update(m).set({ role }).where(allowed).returning({ role: m.role }),
      db.select({ role: m.role }).from(m).where(key),
    ])
    if (written!.length > 0) return "done"
    return still!.length > 0 ? "last-owner" : "not-found"
  }

  return {
    async createOrganization(org, ownerId, { maxPerUser }) {
      const stored: AdapterOrganization = {
        id: org.id || crypto.randomUUID(),
        name: org.name,
        slug: org.slug.toLowerCase(),
        createdAt: org.createdAt,
      }
      const created = sql`(select count(*) from ${o} where ${o.creatorId} = ${ownerId})`
      const [checked, inserted] = await step((db) => [
        // The count the insert below will find, read in the same step: which rule refused.
        db.select({ created }).from(u).where(eq(u.id, ownerId)),
        db
          .insert(o)
          .select(
            db
              .select({
                id: bound(stored.id, o.id),
                name: bound(stored.name, o.name),
                slug: bound(stored.slug, o.slug),
                creatorId: u.id,
                createdAt: bound(stored.createdAt, o.createdAt),
              })
              .from(u)
              .where(and(eq(u.id, ownerId), sql`${created} < ${maxPerUser}`)),
          )
          .onConflictDoNothing({ target: o.slug })
          .returning({ id: o.id }),
        // The owner, of the organization this step made (another one never has its new id).
        db
          .insert(m)
          .select(
            db
              .select({
                organizationId: o.id,
                userId: o.creatorId,
                role: bound(ownerRole, m.role),
                createdAt: o.createdAt,
              })
              .from(o)
              .where(and(eq(o.id, stored.id), eq(o.creatorId, ownerId))),
          )
          .returning({ userId: m.userId }),
      ])
      const [check] = checked!
      if (!check) throw refuse("createOrganization", "no such user")
      if (inserted!.length > 0) return stored
      return Number(check.created) >= maxPerUser ? "limit-reached" : "slug-taken"
    },

    async updateOrganization(patch: OrganizationPatch) {
      const slug = patch.slug?.toLowerCase()
      const set = {
        ...(patch.name !== undefined ? { name: patch.name } : {}),
        ...(slug !== undefined ? { slug } : {}),
      }
      const byId = eq(o.id, patch.id)
      // Another organization with the slug: the unique key would refuse the update.
      const free =
        slug === undefined
          ? undefined
          : notExists(
              dialect.db
                .select({ id: o.id })
                .from(o)
                .where(and(eq(o.slug, slug), ne(o.id, patch.id))),
            )
      const [updated, found] = await step((db) => [
        ...(Object.keys(set).length > 0
          ? [db.update(o).set(set).where(and(byId, free)).returning(fields.organization)]
          : [db.select(fields.organization).from(o).where(byId)]),
        db.select(fields.organization).from(o).where(byId),
      ])
      if (updated!.length > 0) return toOrganization(updated![0]!)
      return found!.length > 0 ? "slug-taken" : null
    },

    // Members and invitations go in the same step, whether or not keys are enforced.
    async deleteOrganization(id) {
      const [, , deleted] = await step((db) => [
        db.delete(i).where(eq(i.organizationId, id)).returning({ id: i.id }),
        db.delete(m).where(eq(m.organizationId, id)).returning({ userId: m.userId }),
        db.delete(o).where(eq(o.id, id)).returning({ id: o.id }),
      ])
      return deleted!.length > 0
    },

    updateMemberRole: (organizationId, userId, role) => memberChange(organizationId, userId, role),

    removeMember: (organizationId, userId) => memberChange(organizationId, userId, null),

    async acceptInvitation(id, userId, now) {
      const unexpired = and(eq(i.id, id), gt(i.expiresAt, now))
      const [, joined, taken] = await step((db) => [
        db
          .insert(m)
          .select(
            db
              .select({
                organizationId: i.organizationId,
                userId: bound(userId, m.userId),
                role: i.role,
                createdAt: bound(now, m.createdAt),
              })
              .from(i)
              .where(unexpired),
          )
          // An existing membership is kept as it is.
          .onConflictDoNothing({ target: [m.organizationId, m.userId] })
          .returning({ userId: m.userId }),
        db
          .select(fields.member)
          .from(m)
          .innerJoin(i, eq(i.organizationId, m.organizationId))
          .where(and(unexpired, eq(m.userId, userId))),
        db.delete(i).where(unexpired).returning({ id: i.id }),
      ])
      return taken!.length > 0 && joined!.length > 0 ? toMember(joined![0]!) : null
    },
  }
}
