/** The shapes every operator command shares (apart, so the commands need not import `index.ts`). */

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
