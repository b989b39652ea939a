/** The provider type of credentials sign-in (the app checks the posted fields itself). */

import type { Awaitable } from "./awaitable.js"
import type { CommonProviderOptions, CredentialInput } from "./provider.js"
import type { CredentialsRateLimitOptions } from "./rate-limit-options.js"
import type { User } from "./records.js"

/**
 * Sign-in with whatever the app checks itself (username/password, a one-time code, …).
 * `authorize` returns the user, or `null` to refuse (`CredentialsSignin`).
 */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields of the built-in sign-in page. */
  credentials: C
  /**
   * Check the submitted fields. `credentials` holds every posted field except `csrfToken`
   * (so also `callbackUrl`); `request` is the original request with its body intact.
   * Return `null` (or throw `CredentialsSignin`) to refuse.
   */
  authorize: (
    credentials: Partial<Record<keyof C, unknown>> & Record<string, unknown>,
    request: Request,
  ) => Awaitable<User | null>
  /**
   * Sign-in attempt limits per client IP and per account name, counted before `authorize`.
   * Default: 50 per IP and 10 per account per 15 minutes; `false` turns them off.
   */
  rateLimit?: CredentialsRateLimitOptions | false
}
