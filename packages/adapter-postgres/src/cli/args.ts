/** Argument parsing shared by the operator commands: flags, durations, user ids. */

/** `--name value` and `--flag` pairs, and the positional arguments, of `args`. */
export function parseArgs(
  args: readonly string[],
  spec: { values: readonly string[]; flags: readonly string[] },
): { values: Map<string, string>; flags: Set<string>; positional: string[] } {
  const values = new Map<string, string>()
  const flags = new Set<string>()
  const positional: string[] = []
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (!arg.startsWith("--")) {
      positional.push(arg)
      continue
    }
    const [name, inline] = arg.slice(2).split("=", 2) as [string, string | undefined]
    if (spec.flags.includes(name) && inline === undefined) flags.add(name)
    else if (spec.values.includes(name)) {
      const value = inline ?? args[++i]
      if (value === undefined) throw new UsageError(`--${name} needs a value`)
      values.set(name, value)
    } else throw new UsageError(`unknown option ${arg}`)
  }
  return { values, flags, positional }
}

const UNITS: Readonly<Record<string, number>> = { d: 86_400_000, h: 3_600_000, m: 60_000 }

/** `30d`, `12h`, `90m` in milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d{1,6})([dhm])$/.exec(text)
  if (!match) throw new UsageError(`"${text}" is not a duration like 30d, 12h or 90m`)
  return Number(match[1]) * UNITS[match[2]!]!
}

/** A wrong command line: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
