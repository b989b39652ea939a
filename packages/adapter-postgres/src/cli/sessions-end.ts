/**
 * `latchkey sessions:end <userId>`: ends every session of the user signed in until now —
 * database sessions, and JWT sessions through the user's session version kept in the database.
 */
import { endAllSessions } from "@latchkey/core/admin"
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
      await endAllSessions(db.config, positional[0]!)
      io.err(`Ended every session of user ${positional[0]} signed in until now.`)
      return 0
    } finally {
      await db.close()
    }
  },
}
