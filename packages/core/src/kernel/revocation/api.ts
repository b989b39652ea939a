/**
 * The server API of revocation, for app code: a "your devices" page and ending one session.
 * Each takes the app's config (the same object given to `Auth()`). "Sign out everywhere" is
 * `revokeUserSessions` (kernel/grants/end-sessions.ts): it moves the account's state.
 */

import type { AuthConfig } from "../config/auth-config.js"
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js"
import { InvalidParameter } from "../errors/errors.js"
import { nowSeconds } from "../runtime/time.js"
import type { SessionRecord } from "./backend.js"
import { revocationBackend, tokenLifetime } from "./index.js"

/** Ids become store keys and query parameters: bounded, non-empty strings only. */
export function assertId(name: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value === "" || value.length > 512) {
    throw new InvalidParameter(name, "must be a non-empty string of at most 512 characters")
  }
}

export function usable(config: AuthConfig): ResolvedConfig {
  const resolved = resolveConfig(config)
  if (resolved.configError) throw resolved.configError
  return resolved
}

/**
 * Ends one JWT session by its `sid` (from `listUserSessions`, or the `sid` claim): every copy
 * of its cookie is refused — on the next read with `revocation: "strict"`, at its next
 * re-issue with the default `"reissue"`.
 */
export async function revokeSession(config: AuthConfig, sid: string): Promise<void> {
  assertId("sid", sid)
  const resolved = usable(config)
  await revocationBackend(resolved).revokeSession(sid, nowSeconds() + tokenLifetime(resolved))
}

/** The user's JWT sessions that are neither expired nor revoked, for a "your devices" page. */
export async function listUserSessions(
  config: AuthConfig,
  userId: string,
): Promise<SessionRecord[]> {
  assertId("userId", userId)
  return revocationBackend(usable(config)).listSessions(userId)
}
