/**
 * `latchkey users:unproven --older-than 30d [--limit 1000] [--remove]`: the accounts whose
 * address nobody proved, created before the given age; with `--remove`, deletes them (their
 * sessions ended first). Squatted addresses are among them, and so are real users who signed
 * up with a passkey and never confirmed their address: list before removing.
 */
import { listUnprovenUsers, removeUnprovenUsers } from "@latchkey/core/admin"
import { parseArgs, parseDuration, UsageError } from "./args.js"
import { openDatabase } from "./database.js"
import type { Subcommand } from "./index.js"

export const command: Subcommand = {
  usage: "--older-than <30d|12h|90m> [--limit <n>] [--remove]",
  async run(args, io) {
    const { values, flags, positional } = parseArgs(args, {
      values: ["older-than", "limit"],
      flags: ["remove"],
    })
    if (positional.length > 0) throw new UsageError(`unexpected argument ${positional[0]}`)
    const age = values.get("older-than")
    if (age === undefined) throw new UsageError("--older-than is required")
    const limit = Number(values.get("limit") ?? "1000")
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
      throw new UsageError("--limit must be an integer from 1 to 10000")
    }
    const query = { olderThan: new Date(Date.now() - parseDuration(age)), limit }
    const db = await openDatabase(io)
    try {
      const remove = flags.has("remove")
      const users = remove
        ? await removeUnprovenUsers(db.config, query)
        : await listUnprovenUsers(db.config, query)
      for (const user of users) io.out(`${user.id}\t${user.email}`)
      io.err(
        remove
          ? `Removed ${users.length} unproven account(s) created more than ${age} ago.`
          : `${users.length} unproven account(s) created more than ${age} ago. Add --remove to delete them.`,
      )
      return 0
    } finally {
      await db.close()
    }
  },
}
