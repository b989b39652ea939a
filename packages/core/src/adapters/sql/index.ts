/**
 * What Latchkey's SQL adapters share (`@latchkey/adapter-postgres`, `@latchkey/adapter-drizzle`,
 * and any other written against the contract): the stored form of a session token, errors that
 * are safe to log, the account row mapping and the bound of a session write. Web-platform APIs
 * only.
 *
 * @module @latchkey/core/adapters/sql
 */
export { type AdapterLabel, adapterRefusal, safeErrorCode, toAdapterError } from "./failure.js"
export {
  accountColumns,
  othersKept,
  preparedStatementName,
  toAccount,
  toAuthenticator,
  toDate,
  toNullableDate,
  toNullableString,
  toUser,
  toVerificationToken,
} from "./records.js"
export { storedSessionToken } from "./session-token.js"
