/** Email-link tokens: stored as the core hands them over, used at most once. */
import type { VerificationToken } from "@latchkey/core/adapters"
import { and, eq } from "drizzle-orm"
import { pick, toVerificationToken, verificationTokenColumns } from "../records.js"
import type { MethodGroup } from "./group.js"

export const verificationTokens: MethodGroup = {
  available: () => true,
  methods({ dialect, t, guarded }) {
    const fields = pick(t.verificationTokens, verificationTokenColumns)
    return {
      createVerificationToken: guarded(
        "createVerificationToken",
        async (token: VerificationToken) => {
          const stored = toVerificationToken({ ...token })
          await dialect.db.insert(t.verificationTokens).values({ ...stored })
          return stored
        },
      ),

      // Read and deleted in one step (DELETE … RETURNING; on MySQL the delete's row count
      // decides): of any number of concurrent clicks on one link, exactly one gets it.
      useVerificationToken: guarded(
        "useVerificationToken",
        async ({ identifier, token }: { identifier: string; token: string }) => {
          const where = and(
            eq(t.verificationTokens.identifier, identifier),
            eq(t.verificationTokens.token, token),
          )!
          const [row] = await dialect.deleteReturning(t.verificationTokens, where, fields)
          return row ? toVerificationToken(row) : null
        },
      ),
    }
  },
}
