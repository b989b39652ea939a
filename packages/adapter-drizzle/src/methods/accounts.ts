/** Provider accounts: linked to a user, one per (provider, providerAccountId). */
import type { AccountKey, AccountTokensUpdate, AdapterAccount } from "@latchkey/core/adapters"
import { toAccount } from "@latchkey/core/adapters/sql"
import { and, asc, eq } from "drizzle-orm"
import { accountColumns, pick } from "../records.js"
import type { LatchkeyTables } from "../tables.js"
import type { MethodGroup } from "./group.js"

const tokenColumns = [
  "access_token",
  "refresh_token",
  "expires_at",
  "id_token",
  "token_type",
  "scope",
] as const

const keyOf = (t: LatchkeyTables, key: AccountKey) =>
  and(
    eq(t.accounts.provider, key.provider),
    eq(t.accounts.providerAccountId, key.providerAccountId),
  )!

export const accounts: MethodGroup = {
  available: () => true,
  userRows: (t) => [{ table: t.accounts, userId: t.accounts.userId }],
  methods({ dialect, t, guarded }) {
    const { db } = dialect
    const fields = pick(t.accounts, accountColumns)
    const found = (rows: Record<string, unknown>[]) => (rows[0] ? toAccount(rows[0]) : null)

    return {
      linkAccount: guarded("linkAccount", async (account: AdapterAccount) => {
        const row = Object.fromEntries(accountColumns.map((c) => [c, account[c] ?? null]))
        await db.insert(t.accounts).values(row)
        return toAccount(row)
      }),

      unlinkAccount: guarded("unlinkAccount", async (key: AccountKey) => {
        const rows = await dialect.deleteReturning(t.accounts, keyOf(t, key), fields)
        return found(rows) ?? undefined
      }),

      getAccount: guarded("getAccount", async (providerAccountId: string, provider: string) =>
        found(
          await db
            .select(fields)
            .from(t.accounts)
            .where(keyOf(t, { provider, providerAccountId }))
            .limit(1),
        ),
      ),

      getAccountByUserId: guarded("getAccountByUserId", async (userId: string, provider: string) =>
        found(
          await db
            .select(fields)
            .from(t.accounts)
            .where(and(eq(t.accounts.userId, userId), eq(t.accounts.provider, provider)))
            .orderBy(asc(t.accounts.providerAccountId))
            .limit(1),
        ),
      ),

      // Only the token columns the patch names change (`null` clears one), in one UPDATE.
      updateAccount: guarded("updateAccount", async (patch: AccountTokensUpdate) => {
        const set = Object.fromEntries(
          tokenColumns.filter((c) => patch[c] !== undefined).map((c) => [c, patch[c]]),
        )
        const where = keyOf(t, patch)
        if (Object.keys(set).length === 0) {
          return found(await db.select(fields).from(t.accounts).where(where).limit(1))
        }
        return found(await dialect.updateReturning(t.accounts, set, where, fields))
      }),

      listAccountsByUserId: guarded("listAccountsByUserId", async (userId: string) => {
        const rows = await db
          .select(fields)
          .from(t.accounts)
          .where(eq(t.accounts.userId, userId))
          .orderBy(asc(t.accounts.provider), asc(t.accounts.providerAccountId))
        return rows.map(toAccount)
      }),
    }
  },
}
