/**
 * "Sign out everywhere", for app code and `POST /signout` with `everywhere=true`: a move of the
 * account's state (docs/design/pending-grants.md), so every session signed in until now ends —
 * database rows deleted, JWT sessions refused by their stamp — and every pending grant (a
 * mailed link, a second-factor step) dies with them. Sessions signed in afterwards are
 * unaffected.
 */

import type { AuthConfig } from "../config/auth-config.js"
import type { ResolvedConfig } from "../config/resolve.js"
import { assertId, usable } from "../revocation/api.js"
import { moveAccountState } from "./account-state.js"

/** Ends every session of the user signed in until now. Call it after a password change too. */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<void> {
  assertId("userId", userId)
  await endUserSessions(usable(config), userId)
}

/** `revokeUserSessions` on a resolved config. */
export async function endUserSessions(resolved: ResolvedConfig, userId: string): Promise<void> {
  await moveAccountState(resolved, userId, "sessions-ended")
}
