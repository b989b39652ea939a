/**
 * Which optional adapter methods each part of the account API needs, the 501 answer when one
 * is missing, and the one warning per config that names every missing method.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { NotSupportedByAdapter } from "../errors/errors.js"
import { type Adapter, accountApiAdapterMethods } from "../types/adapters.js"

type Method = keyof Adapter

/** The adapter's methods `names`, or `NotSupportedByAdapter` (501) naming the first missing one. */
export function requireMethods<const M extends Method>(
  config: ResolvedConfig,
  names: readonly M[],
): Required<Pick<Adapter, M>> {
  const adapter = config.adapter
  for (const name of names) {
    if (typeof adapter?.[name] !== "function") {
      throw new NotSupportedByAdapter(
        adapter
          ? `The adapter has no ${name}(): this account change is not supported by it`
          : `The account API needs an adapter with ${name}() for this change`,
        { details: { method: name } },
      )
    }
  }
  return adapter as Required<Pick<Adapter, M>>
}

export function hasMethods(config: ResolvedConfig, names: readonly Method[]): boolean {
  return names.every((name) => typeof config.adapter?.[name] === "function")
}

/**
 * The account API's optional methods this configuration's adapter lacks: every one with
 * database sessions, all but the session methods with JWT sessions (whose sessions are
 * listed from the revocation records).
 */
export function missingAccountMethods(config: ResolvedConfig): string[] {
  if (!config.adapter) return []
  const sessionMethods = new Set<string>(["listSessionsByUserId", "deleteSessionById"])
  return accountApiAdapterMethods.filter(
    (name) =>
      typeof config.adapter?.[name] !== "function" &&
      (config.session.strategy === "database" || !sessionMethods.has(name)),
  )
}

const warned = new WeakSet<ResolvedConfig>()

/**
 * At the account API's first use with this config: one `account-api-unsupported` warning
 * naming the missing methods (their sections answer `null`, their changes 501).
 */
export function warnMissingOnce(config: ResolvedConfig): void {
  if (warned.has(config)) return
  warned.add(config)
  const missing = missingAccountMethods(config)
  if (missing.length > 0) {
    config.logger.warn("account-api-unsupported", `(the adapter lacks: ${missing.join(", ")})`)
  }
}
