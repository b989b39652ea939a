/**
 * The operator commands of `npx latchkey` that work on the database named by `DATABASE_URL`
 * (Node only). The `latchkey` bin of `@latchkey/qwik` hands every command it does not know
 * itself to `runCli`; each subcommand is its own module, loaded only when run, registered in
 * {@link subcommands}.
 *
 * @module @latchkey/adapter-postgres/cli
 */
import { UsageError } from "./args.js"

/** Where a command reads its environment and writes its output. */
export interface CliIo {
  readonly env: Readonly<Record<string, string | undefined>>
  out(line: string): void
  err(line: string): void
}

export interface Subcommand {
  /** One line: the arguments and what it does. */
  readonly usage: string
  /** Runs the command; the process exit code. */
  run(args: readonly string[], io: CliIo): Promise<number>
}

/** Every subcommand, by name; each module is imported only when its command runs. */
export const subcommands: Readonly<Record<string, () => Promise<Subcommand>>> = {
  "users:unproven": async () => (await import("./users-unproven.js")).command,
  "sessions:end": async () => (await import("./sessions-end.js")).command,
  "two-factor:reset": async () => (await import("./two-factor-reset.js")).command,
}

/** Whether `runCli` knows `name`. */
export function hasSubcommand(name: string): boolean {
  return Object.hasOwn(subcommands, name)
}

/** The usage lines of every subcommand. */
export async function usage(): Promise<string> {
  const lines = await Promise.all(
    Object.entries(subcommands).map(
      async ([name, load]) => `  latchkey ${name} ${(await load()).usage}`,
    ),
  )
  return lines.join("\n")
}

/** Runs `[command, ...args]`; the exit code (2: unknown command or bad arguments). */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv
  if (name === undefined || !hasSubcommand(name)) {
    io.err(`Unknown command${name ? ` "${name}"` : ""}. Commands:\n${await usage()}`)
    return 2
  }
  const command = await subcommands[name]!()
  try {
    return await command.run(args, io)
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`latchkey ${name}: ${error.message}\nUsage: latchkey ${name} ${command.usage}`)
      return 2
    }
    io.err(`latchkey ${name}: ${describeError(error)}`)
    return 1
  }
}

/** The error's message, with the cause's (a database error) when there is one. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ""
  return `${error.message}${cause}`
}
