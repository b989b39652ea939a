/**
 * Two-factor sign-in: one TOTP enrollment per user (the secret as the core sealed it) and the
 * hashes of the unused recovery codes. Using a code deletes its row, so it works once.
 */
import type { AdapterTwoFactor } from "@latchkey/core/adapters"
import { and, count, eq } from "drizzle-orm"
import type { LatchkeyTables } from "../tables.js"
import type { MethodGroup } from "./group.js"

type Tables = Required<Pick<LatchkeyTables, "twoFactors" | "twoFactorRecoveryCodes">>

export const twoFactor: MethodGroup = {
  available: (t) => Boolean(t.twoFactors && t.twoFactorRecoveryCodes),
  userRows: (t) => {
    const { twoFactors, twoFactorRecoveryCodes: codes } = t as Tables
    return [
      { table: codes, userId: codes.userId },
      { table: twoFactors, userId: twoFactors.userId },
    ]
  },
  methods({ dialect, t, guarded }) {
    const { db } = dialect
    const { twoFactors: enrollments, twoFactorRecoveryCodes: codes } = t as Tables

    return {
      getTwoFactor: guarded("getTwoFactor", async (userId: string) => {
        const [row] = await db
          .select({ secret: enrollments.secret, enabledAt: enrollments.enabledAt })
          .from(enrollments)
          .where(eq(enrollments.userId, userId))
        if (!row) return null
        return {
          userId,
          secret: String(row.secret),
          enabledAt: (row.enabledAt as Date | null) ?? null,
        }
      }),

      setTwoFactor: guarded("setTwoFactor", async (record: AdapterTwoFactor) => {
        const { userId, secret, enabledAt } = record
        await dialect.alone(() =>
          dialect.upsert(
            db,
            enrollments,
            { userId, secret, enabledAt, createdAt: new Date() },
            [enrollments.userId],
            { secret, enabledAt },
          ),
        )
      }),

      deleteTwoFactor: guarded("deleteTwoFactor", async (userId: string) => {
        await dialect.atomic((tx) => [
          tx.delete(codes).where(eq(codes.userId, userId)),
          tx.delete(enrollments).where(eq(enrollments.userId, userId)),
        ])
      }),

      // One step: the old set never coexists with the new one, nor is lost without it.
      replaceRecoveryCodes: guarded(
        "replaceRecoveryCodes",
        async (userId: string, codeHashes: readonly string[]) => {
          const rows = [...new Set(codeHashes)].map((codeHash) => ({ userId, codeHash }))
          await dialect.atomic((tx) => [
            tx.delete(codes).where(eq(codes.userId, userId)),
            ...(rows.length > 0 ? [tx.insert(codes).values(rows)] : []),
          ])
        },
      ),

      // Of two concurrent uses of one code, only one deletes its row.
      useRecoveryCode: guarded("useRecoveryCode", async (userId: string, codeHash: string) => {
        const where = and(eq(codes.userId, userId), eq(codes.codeHash, codeHash))!
        return (
          (await dialect.deleteReturning(codes, where, { codeHash: codes.codeHash })).length > 0
        )
      }),

      countRecoveryCodes: guarded("countRecoveryCodes", async (userId: string) => {
        const [row] = await db.select({ n: count() }).from(codes).where(eq(codes.userId, userId))
        return Number(row?.n ?? 0)
      }),
    }
  },
}
