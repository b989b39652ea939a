/** The process environment, read without naming `process` (Web-standard sources). */

export type EnvObject = Record<string, string | undefined>

/** The process environment when there is one (Node, Bun, Deno's compat), else `{}`. */
export function readProcessEnv(): EnvObject {
  return (globalThis as { process?: { env?: EnvObject } }).process?.env ?? {}
}
