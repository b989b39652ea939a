/**
 * One attempt against one rule, with the store's failure decided here for every limit: a
 * store that cannot answer (Redis down) refuses the attempt unless the app chose `failOpen`.
 * Failing closed is the default on sign-in endpoints: an outage must not turn into an
 * unlimited password-guessing window. The refusal is the `StoreError` itself, not
 * `RateLimited`: the person made one attempt, and is told sign-in is unavailable for now (503).
 */
import { RateLimited, StoreError } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"
import type { HitOptions, RateLimitRule, RateLimitStore } from "../types/store.js"

/** `unavailable`: the store failed and the limit failed open (failing closed throws instead). */
export type AttemptVerdict =
  | { allowed: true; unavailable?: StoreError }
  | { allowed: false; retryAfterSeconds: number }

/** A failure of a store that throws plain errors, named by its class and the operation. */
function storeFailure(store: RateLimitStore, cause: unknown): StoreError {
  const name = (store as { constructor?: { name?: unknown } }).constructor?.name
  const label =
    typeof name === "string" && /^\w{1,40}$/.test(name) && name !== "Object" ? name : "The store"
  return new StoreError(`${label} could not answer the rate limit's hit command`, {
    cause,
    details: { operation: "hit" },
  })
}

/**
 * Counts one attempt under `key`; `rule === false` allows without counting. Throws the
 * `StoreError` when the store cannot answer and the limit fails closed. `hitOptions` says
 * whether the key is one a stranger chooses (an address, an IP): see `HitOptions`.
 */
export async function countAttempt(
  store: RateLimitStore,
  key: string,
  rule: RateLimitRule | false,
  failOpen: boolean | undefined,
  hitOptions?: HitOptions,
): Promise<AttemptVerdict> {
  if (rule === false) return { allowed: true }
  try {
    const result = await store.hit(key, rule.windowMs, rule.limit, hitOptions)
    return result.allowed
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: result.retryAfterSeconds }
  } catch (cause) {
    const unavailable = cause instanceof StoreError ? cause : storeFailure(store, cause)
    if (failOpen) return { allowed: true, unavailable }
    throw unavailable
  }
}

/** One limit of a request: the scope named in logs, its store key (none: not counted), its rule. */
export interface LimitCheck {
  readonly scope: string
  readonly key: string | undefined
  readonly rule: RateLimitRule | false
  /** The key is chosen by the sender (an IP, a typed address): the store may evict it first. */
  readonly strangerKeyed?: boolean
  /** With `strangerKeyed`: the counter guards an account (see `HitOptions.guardsAccount`). */
  readonly guardsAccount?: boolean
}

/**
 * Counts the request against each check in order and throws `RateLimited` (`message`, with the
 * scope and retry delay in its details) at the first that refuses. A store failure is logged.
 */
export async function enforceChecks(
  logger: Pick<Logger, "error">,
  store: RateLimitStore,
  checks: readonly LimitCheck[],
  options: { failOpen: boolean | undefined; provider: string; message: string },
): Promise<void> {
  for (const { scope, key, rule, strangerKeyed, guardsAccount } of checks) {
    if (!key) continue
    const hitOptions = { strangerKeyed, guardsAccount }
    const verdict = await countAttempt(store, key, rule, options.failOpen, hitOptions)
    if (verdict.allowed && verdict.unavailable) logger.error(verdict.unavailable)
    if (!verdict.allowed) {
      throw new RateLimited(options.message, {
        details: {
          provider: options.provider,
          scope,
          retryAfterSeconds: verdict.retryAfterSeconds,
        },
      })
    }
  }
}
