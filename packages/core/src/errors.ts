/**
 * The typed errors: `AuthError` and every subclass, each with a stable `type` string.
 *
 * @module @latchkey/core/errors
 */
export * from "./kernel/errors/errors.js"
