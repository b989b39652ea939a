/** Options of the account API (`{basePath}/account`), the top-level `account` config key. */
import type { AdapterUser } from "./adapters.js"
import type { Awaitable } from "./awaitable.js"
import type { RateLimitRule, RateLimitStore } from "./store.js"

export interface AccountOptions {
  /**
   * Whether `user` can sign in with a credentials provider (has a password, say). The adapter
   * knows nothing of credentials, so without this function a credentials provider is not
   * counted as a way to sign in, and removing a user's last passkey or linked account is
   * refused even when they have a password. Called only with a credentials provider configured,
   * and before a proof of the address claims a row nobody proved (`kernel/account/claim.ts`):
   * `true` there refuses the claim, since Latchkey cannot remove the app's password, unless
   * `events.accountClaimed` is defined to clear it.
   */
  hasCredentials?: (user: AdapterUser) => Awaitable<boolean>
  /**
   * The limit on changes of one user's account: the account API's changes, two-factor
   * settings, adding a passkey and linking a provider account while signed in. Over it the
   * answer is `RateLimited` (429, `Retry-After`). `false` turns it off.
   */
  rateLimit?: AccountRateLimitOptions | false
}

export interface AccountRateLimitOptions {
  /** Changes per user. Default 30 per 15 minutes. */
  perUser?: RateLimitRule | false
  /** Where changes are counted. Default: the top-level `store`. */
  store?: RateLimitStore
  /**
   * When the store cannot answer: `false` (default) refuses the change (a 503 `StoreError`);
   * `true` lets it through.
   */
  failOpen?: boolean
}
