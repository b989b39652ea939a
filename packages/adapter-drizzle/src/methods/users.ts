/** Users: created with an id of the adapter's own, found by id, address or provider account. */
import type { AdapterUser } from "@latchkey/core/adapters"
import { and, asc, eq, isNull, lt } from "drizzle-orm"
import { pick, toUser, userColumns } from "../records.js"
import { increasingNow } from "../time-order.js"
import type { MethodGroup } from "./group.js"

export const users: MethodGroup = {
  available: () => true,
  methods({ dialect, t, userRows, guarded, refuse }) {
    const { db } = dialect
    const fields = pick(t.users, userColumns)
    const byId = async (id: string) =>
      (await db.select(fields).from(t.users).where(eq(t.users.id, id)).limit(1))[0]

    return {
      createUser: guarded("createUser", async (user: AdapterUser) => {
        // The core proposes a random UUID, and an app creating its users itself may bring its
        // own ids (kept, as the memory adapter keeps them); without one, a UUID. An id in use
        // is refused by the primary key, never merged.
        const id = typeof user.id === "string" && user.id !== "" ? user.id : crypto.randomUUID()
        const stored = toUser({ ...user, id })
        await db.insert(t.users).values({
          ...stored,
          ...(t.users.createdAt ? { createdAt: increasingNow() } : {}),
        })
        return stored
      }),

      getUser: guarded("getUser", async (id: string) => {
        const row = await byId(id)
        return row ? toUser(row) : null
      }),

      // LIMIT 1: Auth.js's documented schemas do not all make the address unique.
      getUserByEmail: guarded("getUserByEmail", async (email: string) => {
        const [row] = await db.select(fields).from(t.users).where(eq(t.users.email, email)).limit(1)
        return row ? toUser(row) : null
      }),

      getUserByAccount: guarded(
        "getUserByAccount",
        async (key: { provider: string; providerAccountId: string }) => {
          const [row] = await db
            .select(fields)
            .from(t.users)
            .innerJoin(t.accounts, eq(t.accounts.userId, t.users.id))
            .where(
              and(
                eq(t.accounts.provider, key.provider),
                eq(t.accounts.providerAccountId, key.providerAccountId),
              ),
            )
            .limit(1)
          return row ? toUser(row) : null
        },
      ),

      // One UPDATE of the fields the patch names: concurrent patches of other fields survive.
      updateUser: guarded(
        "updateUser",
        async (patch: Partial<AdapterUser> & Pick<AdapterUser, "id">) => {
          const set = Object.fromEntries(
            (["name", "email", "emailVerified", "image"] as const)
              .filter((key) => patch[key] !== undefined)
              .map((key) => [key, patch[key]]),
          )
          const where = eq(t.users.id, patch.id)
          const [row] =
            Object.keys(set).length > 0
              ? await dialect.updateReturning(t.users, set, where, fields)
              : [await byId(patch.id)]
          if (!row) throw refuse("updateUser", "no such user")
          return toUser(row)
        },
      ),

      // The user's rows go in the same step as the user, foreign keys or not (SQLite enforces
      // them only with PRAGMA foreign_keys, and Auth.js's documented schemas have none).
      deleteUser: guarded("deleteUser", async (userId: string) => {
        const row = await byId(userId)
        if (!row) return null
        await dialect.atomic((tx) => [
          ...userRows.map(({ table, userId: column }) =>
            tx.delete(table).where(eq(column, userId)),
          ),
          tx.delete(t.users).where(eq(t.users.id, userId)),
        ])
        return toUser(row)
      }),

      ...(t.users.createdAt && {
        listUnprovenUsers: guarded(
          "listUnprovenUsers",
          async ({ olderThan, limit }: { olderThan: Date; limit: number }) => {
            const createdAt = t.users.createdAt!
            // Users made before the column existed (NULL) are never listed: their age is unknown.
            const rows = await db
              .select(fields)
              .from(t.users)
              .where(and(isNull(t.users.emailVerified), lt(createdAt, olderThan)))
              .orderBy(asc(createdAt), asc(t.users.id))
              .limit(limit)
            return rows.map(toUser)
          },
        ),
      }),
    }
  },
}
