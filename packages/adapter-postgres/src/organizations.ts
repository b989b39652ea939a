/**
 * Organizations, their members and invitations (migration 0009). The rules that must hold when
 * requests race are the database's:
 *
 * - one membership per (organization, user) and one pending invitation per (organization,
 *   address) are primary and unique keys;
 * - accepting an invitation is one statement that deletes it and inserts the membership;
 * - a slug is unique lower-cased: concurrent creates of one slug meet on the unique key;
 * - the per-user limit counts under a lock of the creator's row, and the last-owner rule holds
 *   under a lock of the organization's row, each in a READ COMMITTED transaction.
 */
import {
  type Adapter,
  type AdapterInvitation,
  type AdapterMember,
  type AdapterOrganization,
  type MemberChange,
  ownerRole,
} from "@latchkey/core/adapters"
import { safeErrorCode, toDate } from "@latchkey/core/adapters/sql"
import { type Queryable, type Row, transaction } from "./client.js"
import { adapterRefusal } from "./errors.js"
import { organizationSql as sql } from "./organizations-sql.js"
import { isUuid, toDbId } from "./records.js"

/** What the methods need from the adapter: its client, its bounded queries, its error wrapper. */
export interface OrganizationContext {
  client: Queryable
  timeoutMs: number
  rows(text: string, params: unknown[]): Promise<Row[]>
  guarded<A extends unknown[], R>(
    method: string,
    fn: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R>
}

type Query = (text: string, params: unknown[]) => Promise<Row[]>

const toOrganization = (row: Row): AdapterOrganization => ({
  id: String(row.id),
  name: String(row.name),
  slug: String(row.slug),
  createdAt: toDate(row.createdAt),
})

const toMember = (row: Row): AdapterMember => ({
  organizationId: String(row.organizationId),
  userId: String(row.userId),
  role: String(row.role),
  createdAt: toDate(row.createdAt),
})

const toInvitation = (row: Row): AdapterInvitation => ({
  id: String(row.id),
  organizationId: String(row.organizationId),
  email: String(row.email),
  role: String(row.role),
  inviterId: String(row.inviterId),
  expiresAt: toDate(row.expiresAt),
  createdAt: toDate(row.createdAt),
})

/** A UUID the database may hold, or `null` (the column's default makes one). */
const uuidOrNull = (id: string | undefined) => (id !== undefined && isUuid(id) ? id : null)

/** The organizations methods on `ctx`'s database. */
export function organizationMethods(ctx: OrganizationContext): Partial<Adapter> {
  const { guarded } = ctx
  const first = async (text: string, params: unknown[]) => (await ctx.rows(text, params))[0]

  /** `fn` in one READ COMMITTED transaction, its statements on the transaction's connection. */
  const locked = <T>(fn: (query: Query) => Promise<T>) =>
    transaction(ctx.client, ctx.timeoutMs, async (connection) => {
      const query: Query = async (text, params) =>
        (await connection.query(text, params)).rows as Row[]
      await query(sql.readCommitted, [])
      return await fn(query)
    })

  /**
   * A change of one member, under the organization's lock: `statement` changes nothing (returns
   * no row) when it would leave no owner; a member still there then tells why.
   */
  const memberChange = async (
    organizationId: string,
    userId: string,
    statement: string,
    params: (organizationId: string, userId: number) => unknown[],
  ): Promise<MemberChange> => {
    const user = toDbId(userId)
    if (!isUuid(organizationId) || user === null) return "not-found"
    return await locked(async (query) => {
      if ((await query(sql.lockOrganization, [organizationId])).length === 0) return "not-found"
      if ((await query(statement, params(organizationId, user))).length > 0) return "done"
      const member = await query(sql.getMember, [organizationId, user])
      return member.length > 0 ? "last-owner" : "not-found"
    })
  }

  return {
    createOrganization: guarded(
      "createOrganization",
      async (org: AdapterOrganization, ownerId: string, bound: { maxPerUser: number }) => {
        const owner = toDbId(ownerId)
        if (owner === null) throw adapterRefusal("createOrganization", "no such user")
        return await locked(async (query) => {
          if ((await query(sql.lockUser, [owner])).length === 0) {
            throw adapterRefusal("createOrganization", "no such user")
          }
          const [created] = await query(sql.countCreated, [owner])
          if (Number(created?.n ?? 0) >= bound.maxPerUser) return "limit-reached" as const
          const [row] = await query(sql.createOrganization, [
            uuidOrNull(org.id),
            org.name,
            org.slug,
            owner,
            org.createdAt,
            ownerRole,
          ])
          return row ? toOrganization(row) : ("slug-taken" as const)
        })
      },
    ),

    getOrganization: guarded("getOrganization", async (id: string) => {
      if (!isUuid(id)) return null
      const row = await first(sql.getOrganization, [id])
      return row ? toOrganization(row) : null
    }),

    getOrganizationBySlug: guarded("getOrganizationBySlug", async (slug: string) => {
      const row = await first(sql.getOrganizationBySlug, [slug])
      return row ? toOrganization(row) : null
    }),

    updateOrganization: guarded(
      "updateOrganization",
      async (
        org: Pick<AdapterOrganization, "id"> & Partial<Pick<AdapterOrganization, "name" | "slug">>,
      ) => {
        if (!isUuid(org.id)) return null
        try {
          const row = await first(sql.updateOrganization, [
            org.id,
            org.name ?? null,
            org.slug ?? null,
          ])
          return row ? toOrganization(row) : null
        } catch (error) {
          // The slug is the table's only unique key an update can hit.
          if (safeErrorCode(error) === "23505") return "slug-taken" as const
          throw error
        }
      },
    ),

    deleteOrganization: guarded("deleteOrganization", async (id: string) => {
      if (!isUuid(id)) return false
      return (await ctx.rows(sql.deleteOrganization, [id])).length > 0
    }),

    listOrganizationsByUserId: guarded("listOrganizationsByUserId", async (userId: string) => {
      const dbId = toDbId(userId)
      if (dbId === null) return []
      const found = await ctx.rows(sql.listOrganizationsByUserId, [dbId])
      return found.map((row) => ({ organization: toOrganization(row), role: String(row.role) }))
    }),

    getMember: guarded("getMember", async (organizationId: string, userId: string) => {
      const dbId = toDbId(userId)
      if (!isUuid(organizationId) || dbId === null) return null
      const row = await first(sql.getMember, [organizationId, dbId])
      return row ? toMember(row) : null
    }),

    listMembers: guarded("listMembers", async (organizationId: string) => {
      if (!isUuid(organizationId)) return []
      const found = await ctx.rows(sql.listMembers, [organizationId])
      return found.map((row) => ({
        ...toMember(row),
        user: {
          name: row.name == null ? null : String(row.name),
          email: row.email == null ? null : String(row.email),
        },
      }))
    }),

    updateMemberRole: guarded(
      "updateMemberRole",
      async (organizationId: string, userId: string, role: string) =>
        await memberChange(organizationId, userId, sql.updateMemberRole, (org, user) => [
          org,
          user,
          role,
          ownerRole,
        ]),
    ),

    removeMember: guarded(
      "removeMember",
      async (organizationId: string, userId: string) =>
        await memberChange(organizationId, userId, sql.removeMember, (org, user) => [
          org,
          user,
          ownerRole,
        ]),
    ),

    createInvitation: guarded("createInvitation", async (invitation: AdapterInvitation) => {
      const inviter = toDbId(invitation.inviterId)
      if (!isUuid(invitation.organizationId)) {
        throw adapterRefusal("createInvitation", "no such organization")
      }
      if (inviter === null) throw adapterRefusal("createInvitation", "no such user")
      const row = await first(sql.createInvitation, [
        uuidOrNull(invitation.id),
        invitation.organizationId,
        invitation.email,
        invitation.role,
        inviter,
        invitation.expiresAt,
        invitation.createdAt,
      ])
      if (!row) throw adapterRefusal("createInvitation", "no row returned")
      return toInvitation(row)
    }),

    getInvitation: guarded("getInvitation", async (id: string) => {
      if (!isUuid(id)) return null
      const row = await first(sql.getInvitation, [id])
      return row ? toInvitation(row) : null
    }),

    listInvitations: guarded("listInvitations", async (organizationId: string) => {
      if (!isUuid(organizationId)) return []
      return (await ctx.rows(sql.listInvitations, [organizationId])).map(toInvitation)
    }),

    deleteInvitation: guarded("deleteInvitation", async (organizationId: string, id: string) => {
      if (!isUuid(organizationId) || !isUuid(id)) return false
      return (await ctx.rows(sql.deleteInvitation, [organizationId, id])).length > 0
    }),

    acceptInvitation: guarded("acceptInvitation", async (id: string, userId: string, now: Date) => {
      if (!isUuid(id)) return null
      const dbId = toDbId(userId)
      if (dbId === null) throw adapterRefusal("acceptInvitation", "no such user")
      const row = await first(sql.acceptInvitation, [id, dbId, now])
      return row ? toMember(row) : null
    }),
  }
}
