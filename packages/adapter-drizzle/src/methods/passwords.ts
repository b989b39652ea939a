/** Password accounts: the hash the core made of a user's password, at most one per user. */
import { eq } from "drizzle-orm"
import type { MethodGroup } from "./group.js"

export const passwords: MethodGroup = {
  available: (t) => t.passwordHashes !== undefined,
  userRows: (t) => [{ table: t.passwordHashes!, userId: t.passwordHashes!.userId }],
  methods({ dialect, t, guarded }) {
    const hashes = t.passwordHashes!
    return {
      getPasswordHash: guarded("getPasswordHash", async (userId: string) => {
        const [row] = await dialect.db
          .select({ hash: hashes.hash })
          .from(hashes)
          .where(eq(hashes.userId, userId))
        return row ? String(row.hash) : null
      }),

      setPasswordHash: guarded("setPasswordHash", async (userId: string, hash: string) => {
        const updatedAt = new Date()
        await dialect.alone(() =>
          dialect.upsert(dialect.db, hashes, { userId, hash, updatedAt }, [hashes.userId], {
            hash,
            updatedAt,
          }),
        )
      }),

      deletePasswordHash: guarded("deletePasswordHash", async (userId: string) => {
        const where = eq(hashes.userId, userId)
        return (await dialect.deleteReturning(hashes, where, { userId: hashes.userId })).length > 0
      }),
    }
  },
}
