/**
 * The token module: session tokens as encrypted JWTs (compact JWE, `dir` + `A256CBC-HS512`),
 * byte-compatible with `@auth/core/jwt`. `decode` and `getToken` return `null` for any bad
 * token and never throw for one.
 *
 * @module @latchkey/core/jwt
 */
export * from "./kernel/token/jwt.js"
