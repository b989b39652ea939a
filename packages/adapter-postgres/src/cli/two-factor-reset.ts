/**
 * `latchkey two-factor:reset <userId>`: removes the user's two-factor enrollment and recovery
 * codes, for an owner who lost their authenticator and proved who they are by other means.
 */
import { resetTwoFactor } from "@latchkey/core/admin"
import { parseArgs, UsageError } from "./args.js"
import { openDatabase } from "./database.js"
import type { Subcommand } from "./index.js"

export const command: Subcommand = {
  usage: "<userId>",
  async run(args, io) {
    const { positional } = parseArgs(args, { values: [], flags: [] })
    if (positional.length !== 1) throw new UsageError("give exactly one user id")
    const db = await openDatabase(io)
    try {
      const enrolled = await resetTwoFactor(db.config, positional[0]!)
      io.err(
        enrolled
          ? `Two-factor removed for user ${positional[0]}: their next sign-in asks no code. End their sessions too (sessions:end) if the authenticator may be in other hands.`
          : `User ${positional[0]} had no two-factor enrollment; nothing changed.`,
      )
      return enrolled ? 0 : 1
    } finally {
      await db.close()
    }
  },
}
