/**
 * Passkeys (WebAuthn credentials). With the account API's columns: the user's name for each,
 * when it was made and last used, and delete and rename by its owner only.
 */
import type { AdapterAuthenticator } from "@latchkey/core/adapters"
import { and, asc, eq, sql } from "drizzle-orm"
import { authenticatorColumns, pick, toAuthenticator } from "../records.js"
import type { LatchkeyTables } from "../tables.js"
import type { MethodGroup } from "./group.js"

type Authenticators = NonNullable<LatchkeyTables["authenticators"]>

const named = (a: Authenticators) => Boolean(a.name && a.createdAt && a.lastUsedAt)

export const authenticators: MethodGroup = {
  available: (t) => t.authenticators !== undefined,
  userRows: (t) => [{ table: t.authenticators!, userId: t.authenticators!.userId }],
  methods({ dialect, t, guarded, refuse }) {
    const a = t.authenticators!
    const { db } = dialect
    const withAccount = named(a)
    const fields = pick(a, authenticatorColumns)
    const ofUser = (userId: string, credentialID: string) =>
      and(eq(a.userId, userId), eq(a.credentialID, credentialID))!

    return {
      createAuthenticator: guarded(
        "createAuthenticator",
        async (authenticator: AdapterAuthenticator) => {
          const row = {
            credentialID: authenticator.credentialID,
            userId: authenticator.userId,
            providerAccountId: authenticator.providerAccountId,
            credentialPublicKey: authenticator.credentialPublicKey,
            counter: authenticator.counter,
            credentialDeviceType: authenticator.credentialDeviceType,
            credentialBackedUp: authenticator.credentialBackedUp,
            transports: authenticator.transports ?? null,
            ...(withAccount
              ? {
                  name: authenticator.name ?? null,
                  createdAt: authenticator.createdAt ?? new Date(),
                  lastUsedAt: null,
                }
              : {}),
          }
          await db.insert(a).values(row)
          return toAuthenticator(row)
        },
      ),

      getAuthenticator: guarded("getAuthenticator", async (credentialID: string) => {
        const [row] = await db.select(fields).from(a).where(eq(a.credentialID, credentialID))
        return row ? toAuthenticator(row) : null
      }),

      listAuthenticatorsByUserId: guarded("listAuthenticatorsByUserId", async (userId: string) => {
        const order = withAccount
          ? [sql`${a.createdAt!} is not null`, asc(a.createdAt!), asc(a.credentialID)]
          : [asc(a.credentialID)]
        const rows = await db
          .select(fields)
          .from(a)
          .where(eq(a.userId, userId))
          .orderBy(...order)
        return rows.map(toAuthenticator)
      }),

      // A sign-in with the passkey: the counter and when it was last used, in one statement.
      updateAuthenticatorCounter: guarded(
        "updateAuthenticatorCounter",
        async (credentialID: string, newCounter: number) => {
          const set = { counter: newCounter, ...(withAccount ? { lastUsedAt: new Date() } : {}) }
          const where = eq(a.credentialID, credentialID)
          const [row] = await dialect.updateReturning(a, set, where, fields)
          if (!row) throw refuse("updateAuthenticatorCounter", "no such credential")
          return toAuthenticator(row)
        },
      ),

      ...(withAccount && {
        deleteAuthenticator: guarded(
          "deleteAuthenticator",
          async (userId: string, credentialID: string) =>
            (
              await dialect.deleteReturning(a, ofUser(userId, credentialID), {
                id: a.credentialID,
              })
            ).length > 0,
        ),

        renameAuthenticator: guarded(
          "renameAuthenticator",
          async (userId: string, credentialID: string, name: string) =>
            (
              await dialect.updateReturning(a, { name }, ofUser(userId, credentialID), {
                id: a.credentialID,
              })
            ).length > 0,
        ),
      }),
    }
  },
}
