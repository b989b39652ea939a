/**
 * A provider's `refresh` option, settled: `true` or an object turns refresh on, with defaults
 * for whatever the object leaves out. Anything else (absent, `false`) leaves it off.
 */
import type { ProviderConfig } from "../../../kernel/types/provider.js"
import type { RefreshOptions } from "../client/provider-config.js"

export interface ResolvedRefreshOptions {
  readonly skewSeconds: number
  readonly timeoutMs: number
  readonly graceMs: number
}

export const DEFAULT_REFRESH: ResolvedRefreshOptions = Object.freeze({
  skewSeconds: 60,
  timeoutMs: 10_000,
  graceMs: 30_000,
})

/** The refresh options of `provider`, or `undefined` when it does not refresh. */
export function refreshOptionsOf(provider: ProviderConfig): ResolvedRefreshOptions | undefined {
  if (provider.type !== "oauth" && provider.type !== "oidc") return undefined
  const option = (provider as { refresh?: boolean | RefreshOptions }).refresh
  if (!option) return undefined
  if (option === true) return DEFAULT_REFRESH
  return Object.freeze({
    skewSeconds: nonNegative(option.skewSeconds, DEFAULT_REFRESH.skewSeconds),
    timeoutMs: nonNegative(option.timeoutMs, DEFAULT_REFRESH.timeoutMs),
    graceMs: nonNegative(option.graceMs, DEFAULT_REFRESH.graceMs),
  })
}

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : fallback
}
