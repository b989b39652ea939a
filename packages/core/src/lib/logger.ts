/**
 * The logger every module uses. Each level can be replaced on its own (`config.logger`);
 * the built-in `debug` is silent unless `debug: true`, a custom one always receives calls.
 * Callers pass codes, types and sizes — never a token, cookie value or secret.
 */
import { AuthError } from "../errors.js"
import type { AuthConfig, LoggerInstance, WarningCode } from "../types.js"

export interface Logger {
  error(error: Error): void
  warn(code: WarningCode, detail?: string): void
  debug(message: string, metadata?: Record<string, unknown>): void
}

const consoleLogger: LoggerInstance = {
  error(error) {
    const type = error instanceof AuthError ? error.type : error.name
    console.error(`[latchkey][error] ${type}: ${error.message}`)
    if (error.cause !== undefined) console.error("[latchkey][cause]", error.cause)
  },
  warn(code, detail) {
    console.warn(detail ? `[latchkey][warn][${code}] ${detail}` : `[latchkey][warn][${code}]`)
  },
  debug(message, metadata) {
    console.debug(`[latchkey][debug] ${message}`, metadata ?? "")
  },
}

export function createLogger(config: Pick<AuthConfig, "logger" | "debug">): Logger {
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
        if (detail === undefined) warn(code)
        else warn(code, detail)
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
