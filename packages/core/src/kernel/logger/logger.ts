/**
 * The logger every module uses. Each level can be replaced on its own (`config.logger`);
 * the built-in `debug` is silent unless `debug: true`, a custom one always receives calls.
 * Callers pass codes, types and sizes — never a token, cookie value or secret.
 *
 * A warning is logged once per process for each code and detail: apps (and the Qwik binding,
 * per environment) may build their config more than once, and a per-request event such as a
 * stale session cookie would otherwise repeat without adding anything. Repeats go to `debug`.
 * The exception is a failed attempt (a refused password, a failed OAuth check): a security log
 * needs every one of those (ASVS 16.3.1/16.3.3), so they are logged each time.
 *
 * User events (signed out, asked to sign in again) are not warnings: `event` logs them at
 * `debug`, with their code and sentence, so an app's log is not full of ordinary visits.
 */
import { AuthError } from "../errors/errors.js"
import type { LogCode, UserEventCode, WarningCode } from "../errors/warnings.js"
import { isUserEvent, type LogTexts, WARNING_TEXT, warningText } from "../errors/warnings.js"

/** Log sink. Every level may be replaced on its own; nothing passed here carries a secret. */
export interface LoggerInstance {
  error: (error: AuthError | Error) => void
  /**
   * `message` (Latchkey): what happened and what to do, then the call's own detail (which
   * check failed, which variable to set). Never a secret. Auth.js sinks taking only the code
   * work unchanged.
   */
  warn: (code: WarningCode, message?: string) => void
  debug: (message: string, metadata?: unknown) => void
}

export interface Logger {
  error(error: Error): void
  warn(code: WarningCode, detail?: string): void
  /** A user event: `debug`, as `[<code>] <sentence> <detail>`. */
  event(code: UserEventCode, detail?: string): void
  debug(message: string, metadata?: Record<string, unknown>): void
}

const consoleLogger: LoggerInstance = {
  error(error) {
    const type = error instanceof AuthError ? error.type : error.name
    console.error(`[latchkey][error] ${type}: ${error.message}`)
    if (error.cause !== undefined) console.error("[latchkey][cause]", error.cause)
  },
  warn(code, text) {
    console.warn(`[latchkey][warn][${code}] ${text}`)
  },
  debug(message, metadata) {
    console.debug(`[latchkey][debug] ${message}`, metadata ?? "")
  },
}

/**
 * Codes that record one event each (a failed attempt, an account claimed): never folded into
 * one line per process, since a security log needs every one.
 */
const PER_ATTEMPT: ReadonlySet<WarningCode> = new Set([
  "credentials-refused",
  "check-failed",
  "two-factor-refused",
  "account-claimed",
])

/** Warnings already logged by this process, per sink: code → the details seen. */
const warned = new WeakMap<object, Map<WarningCode, Set<string>>>()

/**
 * Distinct details logged per code. Some details come from requests (the origin of a
 * host mismatch), so the set is bounded: a flood of causes cannot grow memory or the log, nor
 * hide other codes' first warning.
 */
const MAX_DETAILS_PER_CODE = 20

/** Whether this warning is new for `sink`; records it. */
function firstTime(sink: object, code: WarningCode, detail: string | undefined): boolean {
  const codes = warned.get(sink) ?? new Map<WarningCode, Set<string>>()
  warned.set(sink, codes)
  const seen = codes.get(code) ?? new Set<string>()
  codes.set(code, seen)
  const key = detail ?? ""
  if (seen.has(key) || seen.size >= MAX_DETAILS_PER_CODE) return false
  seen.add(key)
  return true
}

/** `texts`: the sentence of each code (the kernel's, and those of the configured features). */
export function createLogger(
  config: {
    logger?: Partial<LoggerInstance>
    debug?: boolean
  },
  texts: LogTexts = WARNING_TEXT,
): Logger {
  const custom = config.logger ?? {}
  const debugEnabled = config.debug === true || typeof custom.debug === "function"
  const error = custom.error ?? consoleLogger.error
  const warn = custom.warn ?? consoleLogger.warn
  const debug = custom.debug ?? consoleLogger.debug
  // A logger that throws must not turn a sign-in into a 500.
  return Object.freeze({
    error(e: Error) {
      try {
        error(e)
      } catch {}
    },
    warn(code: WarningCode, detail?: string) {
      try {
        if (PER_ATTEMPT.has(code) || firstTime(warn, code, detail))
          warn(code, warningText(code, detail, texts))
        else if (debugEnabled) debug(`warning ${code} (repeat)`, detail ? { detail } : undefined)
      } catch {}
    },
    event(code: UserEventCode, detail?: string) {
      if (!debugEnabled) return
      try {
        debug(`[${code}] ${warningText(code, detail, texts)}`)
      } catch {}
    },
    debug(message: string, metadata?: Record<string, unknown>) {
      if (!debugEnabled) return
      try {
        debug(message, metadata)
      } catch {}
    },
  })
}

/** Logs a refusal under its code: a user event at `debug`, anything else as a warning. */
export function logCoded(logger: Logger, code: LogCode, detail: string): void {
  if (isUserEvent(code)) logger.event(code, detail)
  else logger.warn(code, detail)
}
