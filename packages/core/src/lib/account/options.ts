/** Options of the account API (`{basePath}/account`), the top-level `account` config key. */
import type { AdapterUser } from "../../adapters.js"
import type { Awaitable } from "../types/awaitable.js"

export interface AccountOptions {
  /**
   * Whether `user` can sign in with a credentials provider (has a password, say). The adapter
   * knows nothing of credentials, so without this function a credentials provider is not
   * counted as a way to sign in, and removing a user's last passkey or linked account is
   * refused even when they have a password. Called only with a credentials provider configured,
   * and before a proof of the address claims a row nobody proved (`lib/account/claim.ts`):
   * `true` there refuses the claim, since Latchkey cannot remove the app's password, unless
   * `events.accountClaimed` is defined to clear it.
   */
  hasCredentials?: (user: AdapterUser) => Awaitable<boolean>
}
