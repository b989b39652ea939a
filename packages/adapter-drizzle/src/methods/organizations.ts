/**
 * Organizations, their members and invitations. One membership per (organization, user) and one
 * pending invitation per (organization, address) are keys of the tables; a slug is stored
 * lower-cased under a unique key. The steps that read before they write (create under the
 * per-user limit, change or remove a member without losing the last owner, accept an
 * invitation) are the dialect's: locks on PostgreSQL and MySQL (`organizations-locked.ts`),
 * conditions inside the statements of one step on SQLite (`organizations-serial.ts`).
 */
import type { Adapter, AdapterInvitation } from "@latchkey/core/adapters"
import { and, asc, eq } from "drizzle-orm"
import {
  invitationColumns,
  memberColumns,
  organizationColumns,
  pick,
  toInvitation,
  toMember,
  toOrganization,
} from "../records.js"
import type { MethodGroup } from "./group.js"
import type { OrganizationTables, StepContext } from "./organization-steps.js"
import { lockedSteps } from "./organizations-locked.js"
import { serialSteps } from "./organizations-serial.js"

export const organizations: MethodGroup = {
  available: (t) => Boolean(t.organizations && t.members && t.invitations),
  // A user's memberships and sent invitations go with the user; the organizations they created
  // stay (their `creatorId` is set to NULL by the foreign key where the database enforces it).
  userRows: (t) => [
    { table: t.members!, userId: t.members!.userId },
    { table: t.invitations!, userId: t.invitations!.inviterId },
  ],
  methods(ctx) {
    const t = ctx.t as OrganizationTables
    const { db } = ctx.dialect
    const { organizations: o, members: m, invitations: i } = t
    const fields = {
      organization: pick(o, organizationColumns),
      member: pick(m, memberColumns),
    }
    const invitationFields = pick(i, invitationColumns)
    const step: StepContext = { ctx, t, fields }
    const { concurrency } = ctx.dialect
    const steps =
      concurrency.kind === "locks" ? lockedSteps(step, concurrency) : serialSteps(step, concurrency)

    const methods: Partial<Adapter> = {
      ...steps,

      async getOrganization(id: string) {
        const [row] = await db.select(fields.organization).from(o).where(eq(o.id, id))
        return row ? toOrganization(row) : null
      },

      async getOrganizationBySlug(slug: string) {
        const where = eq(o.slug, slug.toLowerCase())
        const [row] = await db.select(fields.organization).from(o).where(where)
        return row ? toOrganization(row) : null
      },

      async listOrganizationsByUserId(userId: string) {
        const rows = await db
          .select({ ...fields.organization, role: m.role })
          .from(m)
          .innerJoin(o, eq(o.id, m.organizationId))
          .where(eq(m.userId, userId))
          .orderBy(asc(m.createdAt), asc(o.id))
        return rows.map((row) => ({ organization: toOrganization(row), role: String(row.role) }))
      },

      async getMember(organizationId: string, userId: string) {
        const where = and(eq(m.organizationId, organizationId), eq(m.userId, userId))
        const [row] = await db.select(fields.member).from(m).where(where)
        return row ? toMember(row) : null
      },

      async listMembers(organizationId: string) {
        const rows = await db
          .select({ ...fields.member, name: t.users.name, email: t.users.email })
          .from(m)
          .innerJoin(t.users, eq(t.users.id, m.userId))
          .where(eq(m.organizationId, organizationId))
          .orderBy(asc(m.createdAt), asc(m.userId))
        return rows.map((row) => ({
          ...toMember(row),
          user: {
            name: (row.name as string | null) ?? null,
            email: (row.email as string | null) ?? null,
          },
        }))
      },

      // One statement on the (organization, address) key: of concurrent invitations of one
      // address, one row stays, and the ids of the replaced ones find nothing.
      async createInvitation(invitation: AdapterInvitation) {
        const { organizationId: _, email: __, ...replaced } = invitation
        await ctx.dialect.alone(() =>
          ctx.dialect.upsert(db, i, { ...invitation }, [i.organizationId, i.email], replaced),
        )
        return { ...invitation }
      },

      async getInvitation(id: string) {
        const [row] = await db.select(invitationFields).from(i).where(eq(i.id, id))
        return row ? toInvitation(row) : null
      },

      async listInvitations(organizationId: string) {
        const rows = await db
          .select(invitationFields)
          .from(i)
          .where(eq(i.organizationId, organizationId))
          .orderBy(asc(i.createdAt), asc(i.id))
        return rows.map(toInvitation)
      },

      // The organization in the WHERE clause: another organization's invitation matches nothing.
      async deleteInvitation(organizationId: string, id: string) {
        const where = and(eq(i.organizationId, organizationId), eq(i.id, id))!
        return (await ctx.dialect.deleteReturning(i, where, { id: i.id })).length > 0
      },
    }

    return Object.fromEntries(
      Object.entries(methods).map(([name, fn]) => [
        name,
        ctx.guarded(name, fn as (...args: unknown[]) => Promise<unknown>),
      ]),
    )
  },
}
